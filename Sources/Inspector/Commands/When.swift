import CommandLineArguments
import TraceJSON
import TraceQueries
import TraceReader

/// `inspector when TRACE PATH [--before N] [--after N]`: every step at which a value changed.
enum When: Command {
    static let name = "when"
    static let summary = "list the steps at which the value at a path changed (who set this?)"
    static let help = """
        Usage: inspector when TRACE PATH [--before N] [--after N] [--format text|json]

        Lists every step at which the value at PATH changed in TRACE: the step, the store and
        action that changed it, where the action was sent from and what caused it, then the
        change itself, as 'diff --format paths' prints it (old → new, added, removed).
        PATH is written as diff prints paths and starts with a store's name:
          CartStore.lines[2].quantity   CartStore.lines.2.quantity   CheckoutStore.ready._0
          CartStore.lines[id: "MUG"].quantity   (the item whose id is "MUG", wherever it is)
        An item named by id is followed wherever it moves in its array. An index is a position,
        except with --before N, where an index into an array whose items all have distinct ids
        is the item at that index at step N-1, followed as by id.

        A value appearing (its store's register event, a member added) and going (removed)
        are changes too. Only the events of PATH's store are read, and of each only the value
        at PATH is parsed, so a gigabyte trace answers in seconds. In a version 2 trace the
        changes are found from the patches' paths, a state being rebuilt for them only at the
        steps whose patch touches PATH; then the store's patches are applied once, in order, to
        check that each of its states can be rebuilt.

        Options:
          --before N   only the last change before step N: who set the value that step N-1
                       shows ('inspector step' jumps there with the w key)
          --after N    only changes after step N (with --before: between the two)
          --format text   for people (default)
          --format json   one JSON object per change, one per line, for scripts: the step,
                          the event (seq, line, type, store, action, source, cause) and
                          "changes": [{"path","kind":"added|removed|changed","before","after"}]

        An event whose state cannot be given (a version 2 patch that does not apply, which
        validate reports as bad-patch, or a line changed since the trace was opened) is passed
        over: the value is compared across it, and each such line is named on standard error.
        In a version 2 trace, every patch of the store is applied for that, once, even where no
        patch touches PATH: a state of the store that cannot be rebuilt is never left unsaid.

        Exit status:
          0  success, whether or not the value changed
          1  the answer passed over events whose state cannot be given (named on standard
             error): a change made at one of them is listed at the next event that can be read
          2  the command line is wrong (a path that names no store of the trace), or the file
             cannot be read or is not a trace
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let before = try arguments.intOption("--before", atLeast: 0)
        let after = try arguments.intOption("--after", atLeast: 0)
        let format = try arguments.choice("--format", among: ["text", "json"]) ?? "text"
        let file = try arguments.positional("TRACE (the trace file)")
        let pathText = try arguments.positional(
            "PATH (a path that starts with a store's name, as diff prints it: CartStore.lines[2].quantity)")
        try arguments.finish()
        var path: StatePath
        do {
            path = try StatePath(parsing: pathText)
        } catch {
            throw UsageError("PATH: \(error)")
        }
        let trace = try TraceOpening.open(file)
        TraceOpening.reportIssues(of: trace, console: console)
        // With --before N, an index into an array whose items have ids is the item there at
        // step N-1, followed wherever it moves (as `w` in `step` follows the item on screen).
        if let before, before > 0, case .key(let store)? = path.components.first,
            let state = try? trace.readState(of: store, atStep: before - 1)
        {
            let tail = StatePath(Array(path.components.dropFirst())).followingItems(in: state)
            path = StatePath(path.components.prefix(1) + tail.components)
        }
        let history: ValueHistory
        do {
            history = try ValueHistory(trace: trace, path: path)
        } catch {
            throw UsageError("\(error)")
        }
        let text = ValueChangeText(width: TTY.size()?.columns ?? 100, colors: console.style.enabled)
        var count = 0
        func show(_ change: ValueChange) {
            count += 1
            if format == "json" {
                var object = EventJSON.object(change.event, step: change.step)
                object.append(key: "changes", value: .array(change.changes.map(EventJSON.object)))
                console.out.line(JSONPrinter.compact(.object(object), terminalSafe: true))
                return
            }
            var lines: [UInt8] = []
            text.append(change, to: &lines)
            lines.withUnsafeBytes { console.out.write(bytes: $0) }
        }
        if let before {
            if let change = history.lastChange(before: before, after: after) { show(change) }
        } else if format == "json" {
            history.forEachChange(after: after) { change in
                show(change)
                return true
            }
        } else {
            history.writeChanges(after: after, as: text) { lines in
                count += 1
                // Neutralized already (see `writeChanges`): appended as they are, their last
                // newline written by `appendLine`.
                _ = console.out.appendLine { buffer in
                    buffer.append(contentsOf: lines[..<(lines.count - 1)])
                    return true
                }
                return true
            }
        }
        // The store's states that no change needed rebuilt: one that cannot be is named too.
        history.passOverUnreadableStates(after: after, before: before)
        if count == 0 && format == "text" {
            var range = ""
            if let after { range += " after step \(after)" }
            if let before { range += (after == nil ? "" : " and") + " before step \(before)" }
            // A path that no step changed at all is not in the trace, whatever the range.
            var changedEver = range.isEmpty
            if !changedEver {
                history.forEachChange { _ in
                    changedEver = true
                    return false
                }
            }
            if !history.passedOver.isEmpty && (range.isEmpty || !changedEver) {
                console.out.line(
                    "\(path) is not in any state of \(TTY.safe(file)) that could be read; the states that could not are named on standard error"
                )
            } else if range.isEmpty || !changedEver {
                console.out.line(
                    "\(path) is not in any state of \(TTY.safe(file)): check the path with 'inspector show \(TTY.safe(file)) \(trace.lastStep) --store \(TTY.safe(path.components.first.map(storeName) ?? "?"))'"
                )
            } else {
                console.out.line("\(path) did not change\(range)")
            }
        }
        return reportPassedOver(history.passedOver, console: console)
    }

    /// Names on standard error the events `when` passed over (at most five, then how many
    /// more); the exit status: `problems` when there were any.
    static func reportPassedOver(_ passedOver: [TraceReadError], console: Console, limit: Int = 5) -> Int32 {
        guard !passedOver.isEmpty else { return ExitStatus.success }
        for error in passedOver.prefix(limit) {
            console.err.line(
                "inspector: \(TTY.safe(error.path)):\(error.line): warning: \(TTY.safe(error.message)); the value was compared across this event"
            )
        }
        if passedOver.count > limit, let path = passedOver.first?.path {
            console.err.line(
                "inspector: \(TTY.safe(path)): warning: \(passedOver.count - limit) more events were passed over; run 'inspector validate \(TTY.safe(path))' for all of them"
            )
        }
        return ExitStatus.problems
    }

    private static func storeName(_ component: StatePath.Component) -> String {
        switch component {
        case .key(let name): name
        case .index(let index): String(index)
        case .id(let id): id.description
        }
    }
}
