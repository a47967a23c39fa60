import TraceJSON

/// The tools about a trace as a whole: `open_trace`, `summary` and `problems`.
enum TraceTools {
    static let all: [MCPTool] = [openTrace, summary, problems]

    static let openTrace = MCPTool(
        name: "open_trace",
        description:
            "Open a Rewind trace (a JSON Lines file of store transitions) and index it; later calls name it by the same path. Returns its app, stores, event count and last step. Steps go from 0 (before any event) to lastStep; step N is just after the event whose seq is N.",
        inputSchema: MCPSchema.object(
            [("path", MCPSchema.string("the trace file, relative to the server's folder: traces/run.jsonl"))],
            required: ["path"]),
        call: { session, arguments throws(MCPToolError) in
            let trace = try session.trace(try arguments.string("path"))
            var result = header(of: trace)
            result.append(key: "open", value: .array(session.openNames.map(JSONValue.string)))
            return result
        })

    static let summary = MCPTool(
        name: "summary",
        description:
            "What a trace holds: app, format version, stores, events, last step, duration in seconds, and its validation problems counted by kind (errors and warnings). Start here; then 'problems' lists them.",
        inputSchema: MCPSchema.object([MCPSchema.trace], required: ["trace"]),
        call: { session, arguments throws(MCPToolError) in
            let trace = try session.trace(try arguments.string("trace"))
            let report = try session.report(of: trace)
            var result = header(of: trace)
            let file = trace.file
            // `elapsed` counts from the trace's start: the last event's is the run's length.
            if file.eventCount > 0, let last = file.event(at: file.eventCount - 1)?.elapsed, last.isFinite {
                result.append(key: "duration", value: .number(String(last)))
            }
            var byKind = JSONObject()
            for problem in report.problems {
                let count = byKind[problem.kind.rawValue]?.intValue ?? 0
                byKind.set(AnswerBounds.int(count + 1), forKey: problem.kind.rawValue)
            }
            var problems: JSONObject = [
                "errors": AnswerBounds.int(report.errors), "warnings": AnswerBounds.int(report.warnings),
                "byKind": .object(byKind),
            ]
            if let first = report.problems.first(where: { $0.severity == .error }) {
                problems.append(key: "firstError", value: JSONReporter.json(first, sourceRoot: session.sourceRoot))
            }
            if report.omitted > 0 { problems.append(key: "notCountedByKind", value: AnswerBounds.int(report.omitted)) }
            result.append(key: "problems", value: .object(problems))
            return result
        })

    static let problems = MCPTool(
        name: "problems",
        description:
            "The trace's validation problems in line order, as 'inspector validate --format json' gives them: kind, severity, line, seq, store, message, and for a transition its source with sourceFile (the Swift file's path in the repository) and sourceLine. Paged: pass nextOffset as offset for more. The seq of a problem is the step to look at with 'state', 'diff' or 'why'.",
        inputSchema: MCPSchema.object(
            [
                MCPSchema.trace,
                ("errorsOnly", MCPSchema.boolean("only errors, not warnings (default false)")),
            ] + MCPSchema.paging(defaultLimit: 50, maximum: 1000), required: ["trace"]),
        call: { session, arguments throws(MCPToolError) in
            let trace = try session.trace(try arguments.string("trace"))
            let errorsOnly = try arguments.bool("errorsOnly")
            let (offset, limit) = try arguments.page(defaultLimit: 50, maximum: 1000)
            let report = try session.report(of: trace)
            let listed = errorsOnly ? report.problems.filter { $0.severity >= .error } : report.problems
            var page = AnswerPage(offset: offset, limit: limit)
            var position = offset
            while position < listed.count,
                page.add(JSONReporter.json(listed[position], sourceRoot: session.sourceRoot), at: position)
            {
                position += 1
            }
            if position < listed.count { page.more(at: position) }
            var result: JSONObject = [
                "file": .string(trace.name), "events": AnswerBounds.int(report.events),
                "errors": AnswerBounds.int(report.errors), "warnings": AnswerBounds.int(report.warnings),
                "total": AnswerBounds.int(listed.count),
            ]
            for (key, value) in page.members("problems") { result.append(key: key, value: value) }
            if report.omitted > 0 { result.append(key: "omitted", value: AnswerBounds.int(report.omitted)) }
            return result
        })

    /// What every answer about a whole trace starts with.
    static func header(of trace: MCPSession.OpenTrace) -> JSONObject {
        let file = trace.file
        var result: JSONObject = ["trace": .string(trace.name)]
        if let app = file.header.app { result.append(key: "app", value: .string(app)) }
        result.append(key: "version", value: AnswerBounds.int(file.header.version))
        if let started = file.header.started { result.append(key: "started", value: .string(started)) }
        result.append(key: "events", value: AnswerBounds.int(file.eventCount))
        result.append(key: "lastStep", value: AnswerBounds.int(file.lastStep))
        let stores = file.storeNames.prefix(200).map { name -> JSONValue in
            var store: JSONObject = ["name": .string(name)]
            if file.header.machines[name] != nil { store.append(key: "machine", value: .bool(true)) }
            return .object(store)
        }
        result.append(key: "stores", value: .array(Array(stores)))
        if file.storeNames.count > 200 {
            result.append(key: "moreStores", value: AnswerBounds.int(file.storeNames.count - 200))
        }
        if !file.issues.isEmpty {
            result.append(key: "skippedLines", value: AnswerBounds.int(file.issues.count))
        }
        return result
    }
}
