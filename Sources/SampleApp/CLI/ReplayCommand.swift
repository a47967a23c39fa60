import CommandLineArguments
@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) internal import ToolSupport
import TraceJSON
import TraceQueries
import TraceReader

/// `sample-app replay TRACE [--at N]`: time travel into the app. Restores every store to its
/// state at a step of a recorded run and draws the screen as the app drew it then. With
/// `--check`, runs the recorded session again on today's code instead (`ShopReplay`) and
/// reports the first step where it behaves differently.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
enum ReplayCommand: Subcommand {
    static let name = "replay"

    static let help = """
        Usage: sample-app replay TRACE [--at N]
               sample-app replay --check TRACE [--ignore PATH]... [--time RUNS]

        Reads a trace recorded by sample-app, decodes each store's recorded state back into the
        app's own types, and draws the screen from them, exactly as the app drew it.

        With --at N, draws the screen at step N: just after the event whose seq is N (step 0 is
        before any event). Without it, steps through the trace: on a terminal, one step at a time
        (Enter: next, p: previous, a number: go to that step, q: quit); otherwise every step, each
        under a line that names its event.

        With --check, runs the recorded session again on today's code: a new shop, each
        command sent again from its recorded action, each catalog answer given where the trace
        has it, each payment answered by the fake card, each restore replayed. After each event
        the stores' states are compared with the recorded ones, and the first divergence is
        printed as 'inspector compare' prints one: the step, both events, the state diff there
        and the causes. Or: the session replays exactly.

        With --check --time RUNS (the benchmarks' replay row), TRACE is a scenario's trace: it
        is replayed RUNS times in this process, and the scenario's shop records its session
        RUNS times, and one line gives the median of each per action.

        Options:
          --at N         the step to draw, from 0 to the trace's last seq
          --check        replay the session on today's code and report the first divergence
          --ignore PATH  with --check: leave the value at PATH out of every state (a timestamp,
                         an id), as 'inspector compare --ignore'; repeat it for several paths
          --time RUNS    with --check: time the replay against the recording, in this process
          --help, -h     show this help

        Exit status: 0 on success (with --check: the session replays exactly), 1 with --check
        when the replay diverges, 2 when the trace cannot be read, is not from sample-app, has
        no step N, or cannot be replayed (the message names the line).
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        if arguments.flag("--check") { return try check(&arguments, console: console) }
        let step = try arguments.intOption("--at", in: 0...Int.max)
        let path = try arguments.positional("TRACE, the path of a trace recorded by sample-app")
        try arguments.finish()
        let trace = try open(path)
        for issue in trace.issues {
            console.writeError(
                "sample-app: \(TerminalText.safe(path)):\(issue.line): \(issue.kind.rawValue): \(TerminalText.safe(issue.message))\n"
            )
        }
        let renderer = ScreenRenderer(style: console.style)
        if let step {
            guard step <= trace.lastStep else {
                throw UsageError(
                    "--at \(step) is past the end of \(TerminalText.safe(path)): its steps are 0 to \(trace.lastStep)")
            }
            console.write(renderer.render(try ShopSnapshot(trace, atStep: step)))
        } else if console.isInteractive {
            try stepThrough(trace, renderer: renderer, console: console)
        } else {
            for step in steps(of: trace) {
                console.write(heading(trace, step) + "\n")
                console.write(renderer.render(try ShopSnapshot(trace, atStep: step)))
            }
        }
        return 0
    }

    /// `--check`: the session replayed on today's code.
    private static func check(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let ignoring = try arguments.options("--ignore")
        let runs = try arguments.intOption("--time", in: 1...1000)
        let path = try arguments.positional("TRACE, the path of a trace recorded by sample-app")
        try arguments.finish()
        _ = try open(path)
        if let runs {
            let file = path.split(separator: "/").last ?? ""
            let name = file.hasSuffix(".jsonl") ? String(file.dropLast(6)) : String(file)
            guard let scenario = Scenario.named(name) else {
                throw UsageError(
                    "--time times a scenario's trace (traces/NAME.jsonl); the scenarios are: \(Scenario.all.map(\.name).joined(separator: ", "))"
                )
            }
            console.write(try ReplayTiming(path: path, scenario: scenario, runs: runs).line)
            return 0
        }
        let outcome: ReplayOutcome
        do {
            outcome = try ShopReplay.run(.file(path), ignoring: ignoring)
        } catch {
            throw ReplayError(error.path, line: error.line, error.message)
        }
        console.write(outcome.report(colors: console.style.enabled))
        return outcome.isExact ? 0 : 1
    }

    /// Opens the trace at `path`, which must have been recorded by this app.
    private static func open(_ path: String) throws -> TraceFile {
        let trace = try TraceFile(path: path)
        guard let app = trace.header.app, app == Shop.appName else {
            let name = trace.header.app.map { "'\(TerminalText.safe($0))'" } ?? "an app that did not give its name"
            throw ReplayError(
                path, line: 1,
                "recorded by \(name), not by sample-app: replay draws only this app's traces (use 'inspector' for others)"
            )
        }
        return trace
    }

    /// Step 0, then the step of each event, in order. A step with no event of its own (a gap in
    /// the seqs) looks like the step before it, so it is not drawn again: a damaged trace whose
    /// only seq is huge gives two steps, not billions.
    static func steps(of trace: TraceFile) -> [Int] {
        var steps = [0]
        for index in 0..<trace.eventCount {
            if let step = trace.step(ofEventAt: index), step > steps[steps.count - 1] { steps.append(step) }
        }
        return steps
    }

    /// One step at a time, on a terminal.
    private static func stepThrough(_ trace: TraceFile, renderer: ScreenRenderer, console: Console) throws {
        let steps = steps(of: trace)
        var step = 0
        while true {
            console.write("\u{1B}[H\u{1B}[2J" + console.style.bold(heading(trace, step)) + "\n")
            console.write(renderer.render(try ShopSnapshot(trace, atStep: step)))
            console.write(console.style.dim("Enter: next  p: previous  N: go to step N  q: quit") + " > ")
            guard let line = console.readLine() else { return }
            let answer = line.filter { $0 != " " && $0 != "\t" }.lowercased()
            switch answer {
            case "q", "quit":
                return
            case "p", "b", "previous":
                step = steps.last { $0 < step } ?? 0
            case "", "n", "next":
                guard let next = steps.first(where: { $0 > step }) else { return }
                step = next
            default:
                if let target = Int(answer) { step = min(max(0, target), trace.lastStep) }
            }
        }
    }

    /// "step 5 of 23: CartStore add {"sku":"SHIRT"} (caused by step 4)".
    static func heading(_ trace: TraceFile, _ step: Int) -> String {
        var text = "-- step \(step) of \(trace.lastStep)"
        if step == 0 {
            text += ": before any event"
        } else if let index = trace.eventIndex(atStep: step), let event = trace.event(at: index) {
            text += ": " + TerminalText.safe(event.store ?? event.type)
            if event.type == "register" {
                text += " starts"
            } else if let action = event.action {
                text += " " + TerminalText.safe(action)
                if let args = event.args { text += " " + JSONPrinter.compact(.object(args), terminalSafe: true) }
            }
            if let cause = event.cause { text += " (caused by step \(cause))" }
        }
        return text + " --"
    }
}
