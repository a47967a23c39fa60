import Foundation

/// The commands that list or count events, as whole processes against `wc -l` on the same file
/// in the same run (issue 21, "Output that streams"): `log`, `stats` and `when` over all the
/// changes of a path on a 200 MB recorder trace, the same `log` piped to `cat`, the first line of a
/// piped `log` and `step`, and `why` on the last event of a 785,000-event chain of causes; peak
/// memory from `/usr/bin/time` where it is installed.
enum StreamingBenchmark {
    static func run(into table: inout ResultTable, folder: String) throws {
        guard let inspector = inspectorBesideBenchmark(peer: "wc") else { return }
        let path = "\(folder)/stream-200.jsonl"
        print("Streaming: writing a 200 MB trace and a chain of 785,000 causes…")
        let events = try TraceGenerator.write(path: path, bytes: 200 << 20)
        let chainPath = "\(folder)/chain.jsonl"
        try writeChain(path: chainPath, events: 785_000)
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: chainPath)
        }
        let size = formatBytes(TraceGenerator.size(of: path))
        let tool = "'\(inspector)'"
        var failed: [String] = []
        func shell(_ command: String) -> () -> Void {
            { if timeShell(command) == nil { failed.append(command) } }
        }
        let turns = try Measurement.interleaved(
            runs: 3,
            [
                (1, shell("\(tool) log '\(path)' > /dev/null")),
                (1, shell("\(tool) stats '\(path)' > /dev/null")),
                (1, shell("wc -l '\(path)' > /dev/null")),
                (1, shell("\(tool) log '\(path)' | head -1 > /dev/null")),
                (1, shell("echo quit | \(tool) step '\(path)' --at 7 | head -1 > /dev/null")),
                (1, shell("\(tool) why '\(chainPath)' 785000 > /dev/null")),
                (1, shell("wc -l '\(chainPath)' > /dev/null")),
                (1, shell("\(tool) when '\(path)' CartStore.total > /dev/null")),
                // As a person reads a log: through a pipe (`| less`, `| grep`), 66 MB of rows.
                (1, shell("\(tool) log '\(path)' | cat > /dev/null")),
            ])
        guard failed.isEmpty else { throw BenchmarkError("failed: \(failed.joined(separator: "; "))") }
        let wc = turns[2].median
        for (index, name) in [(0, "log"), (1, "stats")] {
            let ratio = turns[index].median / wc
            table.add(
                "inspector \(name) \(size) (\(events) events) vs wc -l, whole processes",
                figure: formatSeconds(turns[index].median), baseline: "wc -l \(formatSeconds(wc))",
                ratio: "\(formatRatio(ratio)) wc's time", target: "≤ 3× wc -l", met: ratio <= 3)
        }
        let pipedRatio = turns[8].median / wc
        table.add(
            "… inspector log \(size) piped to cat (whole pipeline) vs wc -l", figure: formatSeconds(turns[8].median),
            baseline: "wc -l \(formatSeconds(wc))", ratio: "\(formatRatio(pipedRatio)) wc's time",
            target: "(for scale)", met: nil)
        let whenRatio = turns[7].median / wc
        table.add(
            "inspector when \(size) CartStore.total (every cart event changes it) vs wc -l, whole processes",
            figure: formatSeconds(turns[7].median), baseline: "wc -l \(formatSeconds(wc))",
            ratio: "\(formatRatio(whenRatio)) wc's time", target: "≤ 10× wc -l", met: whenRatio <= 10)
        table.add(
            "inspector log \(size) piped to head -1 (first line, whole pipeline)",
            figure: formatSeconds(turns[3].median),
            baseline: "-", ratio: "-", target: "< 50 ms", met: turns[3].median < 0.05)
        table.add(
            "inspector step \(size) --at 7, piped (first line, whole pipeline)",
            figure: formatSeconds(turns[4].median), baseline: "-", ratio: "-", target: "< 50 ms",
            met: turns[4].median < 0.05)
        let chainRatio = turns[5].median / turns[6].median
        table.add(
            "inspector why, last event of a 785,000-event chain, vs wc -l", figure: formatSeconds(turns[5].median),
            baseline: "wc -l \(formatSeconds(turns[6].median))", ratio: "\(formatRatio(chainRatio)) wc's time",
            target: "(streamed; for scale)", met: nil)
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { return }
        for (name, command, limit) in [
            ("log \(size)", "\(tool) log '\(path)'", 64 << 20), ("stats \(size)", "\(tool) stats '\(path)'", 64 << 20),
            ("why on the 785,000-event chain", "\(tool) why '\(chainPath)' 785000", 64 << 20),
        ] {
            guard let output = timeShell("/usr/bin/time -f %M \(command) 2>&1 > /dev/null | tail -1"),
                let kilobytes = Int(output.output.trimmingCharacters(in: .whitespacesAndNewlines))
            else { continue }
            table.add(
                "peak memory of inspector \(name)", figure: formatBytes(kilobytes * 1024), baseline: "-",
                ratio: "-", target: "≤ \(formatBytes(limit))", met: kilobytes * 1024 <= limit)
        }
    }

    /// A trace of `events` events, each caused by the one before it.
    private static func writeChain(path: String, events: Int) throws {
        var text = #"{"type":"header","format":"rewind-trace","version":1,"machines":{}}"# + "\n"
        text += #"{"type":"register","seq":1,"store":"S","state":{"n":0}}"# + "\n"
        for seq in 2...events {
            text +=
                #"{"type":"transition","seq":\#(seq),"store":"S","action":"react","changed":true,"state":{"n":\#(seq)},"cause":\#(seq - 1)}"#
                + "\n"
        }
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }
}
