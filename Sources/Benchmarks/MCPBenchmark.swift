import Foundation

/// `inspector mcp` on a large trace, against the commands that answer the same: `open_trace`
/// against `inspector show` of one step, `summary` (which validates the trace once) against
/// `inspector validate`, then the state at the middle step once the trace is open. All are
/// release processes run in the same benchmark run.
///
/// The server is given its whole input at once (initialize, open_trace, summary, state) and
/// answers one request after the other, writing each answer when it is done; the time of a
/// request is the time between its answer and the one before it, read as the lines arrive.
/// Each of the 3 runs is a new server, so each opens the trace anew; the medians are kept.
enum MCPBenchmark {
    static func run(into table: inout ResultTable, folder: String, megabytes: Int) throws {
        guard let inspector = inspectorBesideBenchmark(peer: "sh") else { return }
        let path = "\(folder)/mcp-\(megabytes).jsonl"
        print("MCP: writing a \(megabytes) MB trace…")
        let events = try TraceGenerator.write(path: path, bytes: megabytes << 20)
        let size = TraceGenerator.size(of: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let step = events / 2
        let requests = "\(folder)/mcp-requests.jsonl"
        let quoted =
            "\"" + path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            + "\""
        let lines = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"benchmark","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"open_trace","arguments":{"path":\#(quoted)}}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"summary","arguments":{"trace":\#(quoted)}}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"state","arguments":{"trace":\#(quoted),"step":\#(step)}}}"#,
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: requests, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: requests) }

        var opens: [Double] = []
        var summaries: [Double] = []
        var states: [Double] = []
        var shows: [Double] = []
        var validations: [Double] = []
        for _ in 0..<3 {
            let times = try answerTimes(
                "'\(inspector)' mcp --allow '\(folder)' < '\(requests)'", answers: 4)
            opens.append(times[1] - times[0])
            summaries.append(times[2] - times[1])
            states.append(times[3] - times[2])
            // validate exits 1 for a trace with problems: only its time matters here.
            guard let show = timeShell("'\(inspector)' show '\(path)' \(step) > /dev/null"),
                let validate = timeShell("'\(inspector)' validate '\(path)' > /dev/null; true")
            else { throw BenchmarkError("inspector show or validate failed on the MCP benchmark's trace") }
            shows.append(show.seconds)
            validations.append(validate.seconds)
        }
        let open = Measurement(samples: opens).median
        let summary = Measurement(samples: summaries).median
        let state = Measurement(samples: states).median
        let show = Measurement(samples: shows).median
        let validate = Measurement(samples: validations).median
        table.add(
            "inspector mcp: open_trace of a \(formatBytes(size)) trace (\(events) events)",
            figure: formatSeconds(open), baseline: "inspector show of one step \(formatSeconds(show))",
            ratio: formatRatio(open / show), target: "≤ 1.1× show's time", met: open <= show * 1.1)
        table.add(
            "inspector mcp: summary of it (validates it once)", figure: formatSeconds(summary),
            baseline: "inspector validate \(formatSeconds(validate))", ratio: formatRatio(summary / validate),
            target: "≤ 1.1× validate's time", met: summary <= validate * 1.1)
        table.add(
            "inspector mcp: state at step \(step), the trace open", figure: formatSeconds(state),
            baseline: "inspector show of it \(formatSeconds(show))", ratio: "\(formatRatio(show / state)) faster",
            target: "< 20 ms", met: state < 0.02)
    }

    /// Runs `command` (a server given its whole input) and returns the seconds from its start
    /// at which each of its first `answers` lines came out; each must be a result without
    /// `"isError":true`.
    static func answerTimes(_ command: String, answers: Int) throws -> [Double] {
        let start = DispatchTime.now().uptimeNanoseconds
        guard let stream = popen(command + " 2>/dev/null", "r") else {
            throw BenchmarkError("could not start \(command)")
        }
        defer { pclose(stream) }
        var times: [Double] = []
        var line: [UInt8] = []
        while times.count < answers {
            let byte = getc(stream)
            guard byte != EOF else { throw BenchmarkError("inspector mcp stopped after \(times.count) answers") }
            if byte == 10 {
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                let text = String(decoding: line, as: UTF8.self)
                guard text.contains("\"result\""), !text.contains("\"isError\":true") else {
                    throw BenchmarkError("inspector mcp answered with an error: \(text.prefix(300))")
                }
                line.removeAll(keepingCapacity: true)
            } else {
                line.append(UInt8(byte))
            }
        }
        return times
    }
}
