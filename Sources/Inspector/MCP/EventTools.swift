import TraceJSON
import TraceQueries
import TraceReader

/// The tools about events: `events` (a range, filtered) and `why` (an event's causes).
enum EventTools {
    static let all: [MCPTool] = [events, why]

    /// The most events one `events` call reads looking for matches; past it, the answer says
    /// where to go on (`nextFrom`), so a filter that matches nothing in a gigabyte trace still
    /// answers in bounded time.
    static let scanLimit = 200_000

    static let events = MCPTool(
        name: "events",
        description:
            "The events of steps 'from' to 'to' (default: the whole trace), each with its step, seq, line, type, store, action, from/to cases, source (the line of Swift that sent it, with sourceFile, its path in the repository, and sourceLine), cause and arguments. Filters: store, action (exact name, or Store.action), problemsOnly (events with a validation problem, each listed with them). Paged: when 'nextFrom' is in the answer, call again with from = nextFrom.",
        inputSchema: MCPSchema.object(
            [
                MCPSchema.trace,
                ("from", MCPSchema.integer("the first step (default 1)")),
                ("to", MCPSchema.integer("the last step (default the trace's last)")),
                ("store", MCPSchema.string("only this store's events")),
                ("action", MCPSchema.string("only this action: 'load', or 'CatalogStore.load'")),
                ("problemsOnly", MCPSchema.boolean("only events with a validation problem (default false)")),
                (
                    "limit",
                    MCPSchema.integer(
                        "the most events in the answer (default 50, at most 500)", minimum: 1, maximum: 500)
                ),
            ], required: ["trace"]),
        call: { session, arguments throws(MCPToolError) in
            let trace = try session.trace(try arguments.string("trace"))
            let file = trace.file
            let from = try arguments.optionalInt("from") ?? 1
            let to = min(try arguments.optionalInt("to") ?? file.lastStep, file.lastStep)
            let store = try arguments.optionalString("store")
            let action = try arguments.optionalString("action")
            let problemsOnly = try arguments.bool("problemsOnly")
            let limit = min(try arguments.optionalInt("limit", atLeast: 1) ?? 50, 500)
            if let store, !file.storeNames.contains(store) {
                throw .failed(
                    "no store named \(MCPExcerpt.of(store)) in \(trace.shownName); its stores are: \(file.storeNames.prefix(50).joined(separator: ", "))"
                )
            }
            var problems: [Int: [Problem]] = [:]
            if problemsOnly || trace.report != nil {
                problems = Dictionary(grouping: try session.report(of: trace).problems, by: \.line)
            }
            func matches(_ event: TraceEvent) -> Bool {
                if let store, event.store != store { return false }
                if let action {
                    guard let name = event.action else { return false }
                    if name != action && "\(event.store ?? "").\(name)" != action { return false }
                }
                if problemsOnly && problems[event.line] == nil { return false }
                return true
            }
            var page = AnswerPage(offset: from, limit: limit)
            var position = firstEvent(atOrAfter: from, in: file)
            var scanned = 0
            // With problemsOnly, only the problems' lines are visited, not every event.
            let problemEvents: [Int]? =
                problemsOnly
                ? problems.keys.sorted().compactMap { file.eventIndex(atLine: $0) }.filter { $0 >= position } : nil
            var problemCursor = 0
            // Whether the action asked for was seen in the range, and the actions that were (as
            // `log --action` lists them when it finds none).
            var actionSeen = false
            var actionsSeen: [String] = []
            var knownActions = Set<String>()
            while true {
                if let problemEvents {
                    guard problemCursor < problemEvents.count else { break }
                    position = problemEvents[problemCursor]
                    problemCursor += 1
                }
                guard position < file.eventCount, let step = file.step(ofEventAt: position), step <= to else { break }
                if scanned >= scanLimit {
                    page.more(at: step)
                    break
                }
                scanned += 1
                let read = file.eventWithoutState(at: position)
                if let action, !actionSeen, let name = read?.action {
                    if name == action || "\(read?.store ?? "").\(name)" == action {
                        actionSeen = true
                    } else if knownActions.count < 200, knownActions.insert(name).inserted {
                        actionsSeen.append(name)
                    }
                }
                if let event = read, matches(event) {
                    var object = session.locatingSource(EventJSON.object(event, step: step))
                    if let args = event.args { object.append(key: "args", value: .object(args)) }
                    if let found = problems[event.line] {
                        object.append(
                            key: "problems",
                            value: .array(found.map { JSONReporter.json($0, sourceRoot: session.sourceRoot) }))
                    }
                    if !page.add(.object(object), at: step) { break }
                    if page.isFull {
                        // More only if another event is in range; it is at a later step.
                        let more =
                            if let problemEvents {
                                problemCursor < problemEvents.count
                                    && (file.step(ofEventAt: problemEvents[problemCursor]) ?? .max) <= to
                            } else {
                                (file.step(ofEventAt: position + 1) ?? .max) <= to
                            }
                        if more { page.more(at: step + 1) }
                        break
                    }
                }
                if problemEvents == nil { position += 1 }
            }
            if let action, !actionSeen, !problemsOnly, page.nextOffset == nil {
                throw .failed(
                    "no action named \(MCPExcerpt.of(action)) in steps \(from) to \(to) of \(trace.shownName); its actions are: \(actionsSeen.isEmpty ? "none" : actionsSeen.prefix(50).map { MCPExcerpt.of($0) }.joined(separator: ", "))"
                )
            }
            var result: JSONObject = [
                "trace": .string(trace.name), "from": AnswerBounds.int(from), "to": AnswerBounds.int(to),
                "events": .array(page.items),
            ]
            if let next = page.nextOffset { result.append(key: "nextFrom", value: AnswerBounds.int(next)) }
            return result
        })

    static let why = MCPTool(
        name: "why",
        description:
            "Why the event whose seq is 'seq' happened: the event with its stack (innermost frame first, where recorded), then the event it happened while handling (its cause), and so on back to the action that started the chain. Each has its source: the line of Swift that sent it, with sourceFile (its path in the repository) and sourceLine. 'end' says how the chain ends: origin, missing-cause, cycle or unreadable.",
        inputSchema: MCPSchema.object(
            [
                MCPSchema.trace, ("seq", MCPSchema.integer("the seq of the event to explain (its step)", minimum: 1)),
                (
                    "limit",
                    MCPSchema.integer(
                        "the most events of the chain listed (default 50, at most 500)", minimum: 1, maximum: 500)
                ),
            ], required: ["trace", "seq"]),
        call: { session, arguments throws(MCPToolError) in
            let trace = try session.trace(try arguments.string("trace"))
            let seq = try arguments.int("seq", atLeast: 1)
            let limit = min(try arguments.optionalInt("limit", atLeast: 1) ?? 50, 500)
            var page = AnswerPage(offset: 0, limit: limit)
            var count = 0
            let end = CauseChain.walk(from: seq, in: trace.file) { event in
                var object = session.locatingSource(
                    EventJSON.object(event, step: trace.file.step(ofEventAt: event.index)))
                if let args = event.args { object.append(key: "args", value: .object(args)) }
                if count < limit, let stack = trace.file.stack(ofEventAt: event.index) {
                    object.append(key: "stack", value: .array(stack.map(JSONValue.string)))
                }
                page.add(.object(object), at: count)
                count += 1
            }
            guard let end else {
                throw .failed(
                    "no event of \(trace.shownName) has seq \(seq); its seqs go from 1 to \(trace.file.lastStep)")
            }
            let (name, cause) = (end.name, end.cause)
            var result: JSONObject = [
                "trace": .string(trace.name), "seq": AnswerBounds.int(seq), "chain": .array(page.items),
                "length": AnswerBounds.int(count), "end": .string(name),
            ]
            if let cause { result.append(key: "endCause", value: AnswerBounds.int(cause)) }
            if page.items.count < count {
                result.append(key: "omitted", value: AnswerBounds.int(count - page.items.count))
            }
            return result
        })

    /// The index of the first event whose step is at least `step` (the event count when none is).
    static func firstEvent(atOrAfter step: Int, in file: TraceFile) -> Int {
        var low = 0
        var high = file.eventCount
        while low < high {
            let middle = (low + high) / 2
            if (file.step(ofEventAt: middle) ?? 0) < step { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
