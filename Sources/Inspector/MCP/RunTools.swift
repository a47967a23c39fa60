import TraceJSON
import TraceQueries
import TraceReader

/// The tools over whole runs: `compare` (where two runs first differ) and `coverage` (which
/// declared transitions the runs took).
enum RunTools {
    static let all: [MCPTool] = [compare, coverage]

    static let compare = MCPTool(
        name: "compare",
        description:
            "Where two runs first differ, events aligned by order: {\"agree\":true,\"events\":N}, or the first differing event of each side with its chain of causes, what differs (type, store, action, cases, changed, args, state) and the app-state changes there, as 'inspector compare --format json' gives it. seq, elapsed, source, stack and cause never count as differences, nor the 'ignore' paths.",
        inputSchema: MCPSchema.object(
            [
                ("first", MCPSchema.string("the first trace file (relative to the server's folder)")),
                ("second", MCPSchema.string("the second trace file")),
                ("ignore", MCPSchema.strings("paths whose values do not count: CartStore.lines[*].addedAt")),
            ], required: ["first", "second"]),
        call: { session, arguments throws(MCPToolError) in
            let first = try arguments.string("first")
            let second = try arguments.string("second")
            var patterns: [StatePathPattern] = []
            if arguments.object["ignore"] != nil && arguments.object["ignore"] != .null {
                for text in try arguments.strings("ignore") {
                    do throws(StatePathError) {
                        patterns.append(try StatePathPattern(parsing: text))
                    } catch {
                        throw .invalidArguments(
                            "ignore: \(MCPExcerpt.of(error.text)) is not a path (column \(error.column)): \(error.message)"
                        )
                    }
                }
            }
            let paths = (try session.checkedPath(first), try session.checkedPath(second))
            let result: TraceComparison.Result
            do throws(ValidationFileError) {
                result = try TraceComparison(ignoring: patterns).compare(.file(paths.0), .file(paths.1))
            } catch {
                throw .failed(error.description)
            }
            var answer: JSONObject = ["first": .string(first), "second": .string(second)]
            guard let difference = result.difference else {
                answer.append(key: "agree", value: .bool(true))
                answer.append(key: "events", value: AnswerBounds.int(result.agreeingEvents))
                return answer
            }
            let (value, folded) = AnswerBounds.fold(Compare.json(difference), budget: AnswerBounds.answerBytes - 1024)
            for (key, member) in value.objectValue ?? [:] { answer.append(key: key, value: member) }
            if folded { answer.append(key: "folded", value: .bool(true)) }
            return answer
        })

    static let coverage = MCPTool(
        name: "coverage",
        description:
            "Over the trace files given: for each store's machine, the declared transitions taken (how often, in how many runs), those never taken, the cases never visited and the illegal transitions taken; a percentage per machine and overall, as 'inspector coverage --format json' gives it.",
        inputSchema: MCPSchema.object(
            [("traces", MCPSchema.strings("the trace files (relative to the server's folder)"))],
            required: ["traces"]),
        call: { session, arguments throws(MCPToolError) in
            let names = try arguments.strings("traces")
            guard names.count <= 1000 else {
                throw .invalidArguments("coverage: at most 1000 traces in one call, not \(names.count)")
            }
            var paths: [String] = []
            for name in names { paths.append(try session.checkedPath(name)) }
            let outcome = CoverageOutcome(coverage: TraceCoverage.measure(files: paths), minimum: nil)
            let (value, folded) = AnswerBounds.fold(
                CoverageJSON.value(outcome), budget: AnswerBounds.answerBytes - 1024)
            var answer = value.objectValue ?? [:]
            if folded { answer.append(key: "folded", value: .bool(true)) }
            return answer
        })
}
