import Foundation
import TraceReader

/// Validation of a 200 MB trace against `jq` checking from/to on every event (against the
/// header's machines; and, for scale, only printing them) and `grep -c` on a fixed string, all on the same file in the same run. Memory: the peak resident size of the
/// validation alone (the kernel's high-water mark is reset first). Then, each beside its peer in
/// the same run: `inspector validate` on a 1 GB trace against `grep -c` as whole processes, a
/// header of 1,000 machines against a trace of the same size, and a chain of causes against the
/// same trace without them.
enum ValidationBenchmark {
    static func run(into table: inout ResultTable, folder: String, megabytes: Int = 200) throws {
        try runMain(into: &table, folder: folder, megabytes: megabytes)
        try runWholeProcesses(into: &table, folder: folder)
        try runManyMachines(into: &table, folder: folder)
        try runCauseChain(into: &table, folder: folder)
    }

    static func runMain(into table: inout ResultTable, folder: String, megabytes: Int) throws {
        let path = "\(folder)/validate-\(megabytes).jsonl"
        print("Validation: writing a \(megabytes) MB trace…")
        let events = try TraceGenerator.write(path: path, bytes: megabytes << 20)
        let size = TraceGenerator.size(of: path)
        print("  \(events) events, \(formatBytes(size))")
        defer { try? FileManager.default.removeItem(atPath: path) }

        // One validation alone for its memory, and to check that the generated trace is valid.
        resetPeakMemory()
        let before = currentPeakMemory()
        let report = try TraceValidator().validate(file: path)
        let memory = max(0, currentPeakMemory() - before)
        guard report.errors == 0 else { throw BenchmarkError("the generated trace does not validate") }

        // The figure every row shows: timed in turns with grep when grep is there, so both see the
        // same moments of a noisy machine.
        // The CPU time of each turn too (the warm-up round's first), for `addCPUTime`.
        var validatingCPU: [Double] = []
        let validating: (operations: Int, body: () throws -> Void) = (
            1,
            {
                let before = cpuSeconds(.current)
                _ = try TraceValidator().validate(file: path)
                validatingCPU.append(cpuSeconds(.current) - before)
            }
        )
        let rewind: Measurement
        if isInstalled("grep") {
            var grepCPU: [Double] = []
            let turns = try Measurement.interleaved([
                validating,
                (1, { grepCPU.append(timedCPU { _ = timeShell("grep -c -F '\"transition\"' '\(path)'") }) }),
            ])
            let grep = turns[1]
            rewind = turns[0]
            let ratio = rewind.median / grep.median
            table.add(
                "validate \(formatBytes(size)) (\(events) events) vs grep -c", figure: formatSeconds(rewind.median),
                baseline: "grep -c \(formatSeconds(grep.median))", ratio: "\(formatRatio(ratio)) grep's time",
                target: "≤ 2.5× grep", met: ratio <= 2.5)
            addCPUTime(validatingCPU, against: grepCPU, into: &table)
        } else {
            rewind = try Measurement.interleaved([validating])[0]
        }
        if isInstalled("jq") {
            // The peer the issue names: jq checking every transition's from → to against the
            // header's machines (what `validate` does for the `illegal` kind), and, for scale,
            // jq only pulling out from and to.
            let check =
                #"input as $h | [inputs | select(.type == "transition") | . as $e | $h.machines[$e.store] as $m | select($m != null) | select((($m.transitions[$e.from] // []) | index([$e.to])) == null)] | length"#
            let checking = Measurement(
                samples: (0..<1).compactMap { _ in
                    timeShell("jq -n '\(check)' '\(path)' > /dev/null")?.seconds
                })
            let speedup = checking.median / rewind.median
            table.add(
                "validate \(formatBytes(size)) vs jq checking from/to against the machines",
                figure: formatSeconds(rewind.median),
                baseline: "jq \(formatSeconds(checking.median))", ratio: "\(formatRatio(speedup)) faster",
                target: "≥ 100× faster", met: speedup >= 100)
            let extracting = Measurement(
                samples: (0..<1).compactMap { _ in
                    timeShell("jq -c 'select(.type == \"transition\") | [.from, .to]' '\(path)' > /dev/null")?.seconds
                })
            table.add(
                "validate \(formatBytes(size)) vs jq only printing from/to", figure: formatSeconds(rewind.median),
                baseline: "jq \(formatSeconds(extracting.median))",
                ratio: "\(formatRatio(extracting.median / rewind.median)) faster",
                target: "-", met: nil)
        }
        table.add(
            "validate \(formatBytes(size)): peak memory of the validation", figure: formatBytes(memory),
            baseline: "file \(formatBytes(size))",
            ratio: String(format: "%.1f%% of the file", Double(memory) * 100 / Double(size)),
            target: "< 64 MB", met: memory < 64 << 20)
    }
}

extension ValidationBenchmark {
    /// `inspector validate FILE` against `grep -c -F '"transition"' FILE` on a 1 GB recorder
    /// trace: both whole processes started with `popen`, in turns, medians.
    static func runWholeProcesses(into table: inout ResultTable, folder: String) throws {
        guard let inspector = inspectorBesideBenchmark(peer: "grep") else { return }
        let path = "\(folder)/validate-1024.jsonl"
        print("Validation: writing a 1 GB trace…")
        let events = try TraceGenerator.write(path: path, bytes: 1024 << 20)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let size = TraceGenerator.size(of: path)
        var failed = false
        var inspectorCPU: [Double] = []
        var grepCPU: [Double] = []
        let turns = try Measurement.interleaved(
            runs: 5,
            [
                (
                    1,
                    {
                        inspectorCPU.append(
                            timedCPU {
                                if timeShell("'\(inspector)' validate '\(path)' > /dev/null") == nil { failed = true }
                            })
                    }
                ),
                (1, { grepCPU.append(timedCPU { _ = timeShell("grep -c -F '\"transition\"' '\(path)'") }) }),
            ])
        guard !failed else { throw BenchmarkError("inspector validate failed on the 1 GB trace") }
        let ratio = turns[0].median / turns[1].median
        table.add(
            "inspector validate \(formatBytes(size)) (\(events) events) vs grep -c, whole processes",
            figure: formatSeconds(turns[0].median), baseline: "grep -c \(formatSeconds(turns[1].median))",
            ratio: "\(formatRatio(ratio)) grep's time", target: "≤ 1× grep", met: ratio <= 1)
        addCPUTime(inspectorCPU, against: grepCPU, into: &table)
    }

    /// The CPU time (user and system) of the children `body` waited for, in seconds.
    static func timedCPU(_ body: () -> Void) -> Double {
        let before = cpuSeconds(.children)
        body()
        return cpuSeconds(.children) - before
    }

    /// A row under a timed comparison with grep: the CPU time of both (every thread's), medians
    /// without the warm-up round. Validation scans on both cores and grep on one, so the wall
    /// ratio above is about this ratio divided by the cores validation was given: on a busy
    /// machine (other sessions building) close to this ratio itself.
    static func addCPUTime(_ rewind: [Double], against grep: [Double], into table: inout ResultTable) {
        let rewind = Measurement(samples: Array(rewind.dropFirst())).median
        let grep = Measurement(samples: Array(grep.dropFirst())).median
        table.add(
            "… CPU time of the same runs (user + system, every thread)", figure: formatSeconds(rewind),
            baseline: "grep -c \(formatSeconds(grep))", ratio: "\(formatRatio(rewind / grep)) grep's CPU time",
            target: "(for scale)", met: nil)
    }

    /// A header of 1,000 machines of 200 cases each (about 8 MB) and a few events, against a
    /// recorder trace of the same size: validation time and peak memory. The machines are one
    /// machine written 1,000 times (stores of one type), then, for scale, 1,000 different ones.
    static func runManyMachines(into table: inout ResultTable, folder: String) throws {
        try runManyMachines(into: &table, folder: folder, distinct: false)
        try runManyMachines(into: &table, folder: folder, distinct: true)
    }

    private static func runManyMachines(into table: inout ResultTable, folder: String, distinct: Bool) throws {
        var machines: [String] = []
        for machine in 0..<1000 {
            // Different machines: two shifts that no two machines share.
            let (shift, shift2) = distinct ? (machine % 200, machine / 200 + 1) : (0, 0)
            let cases = (0..<200).map { index in
                #""case\#(index)":["case\#((index + 1) % 200)","case\#((index + 7 + shift) % 200)","case\#((index + 31 + shift2) % 200)"]"#
            }
            machines.append(#""Store\#(machine)":{"initial":"case0","transitions":{\#(cases.joined(separator: ","))}}"#)
        }
        var lines = [
            #"{"type":"header","format":"rewind-trace","version":1,"app":"Bench","machines":{\#(machines.joined(separator: ","))}}"#,
            #"{"type":"register","seq":1,"elapsed":0,"store":"Store5","case":"case0","state":{"n":0}}"#,
        ]
        for seq in 2..<200 {
            lines.append(
                #"{"type":"transition","seq":\#(seq),"elapsed":0.1,"store":"Store5","action":"next","from":"case\#((seq - 2) % 200)","to":"case\#((seq - 1) % 200)","changed":true,"state":{"n":\#(seq)},"source":"A.swift:1"}"#
            )
        }
        let headerPath = "\(folder)/many-machines.jsonl"
        let peerPath = "\(folder)/many-machines-peer.jsonl"
        defer {
            try? FileManager.default.removeItem(atPath: headerPath)
            try? FileManager.default.removeItem(atPath: peerPath)
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: headerPath, atomically: false, encoding: .utf8)
        let size = TraceGenerator.size(of: headerPath)
        _ = try TraceGenerator.write(path: peerPath, bytes: size)
        guard try TraceValidator().validate(file: headerPath).errors == 0 else {
            throw BenchmarkError("the many-machines trace does not validate")
        }
        let turns = try Measurement.interleaved(
            runs: 9,
            [
                (1, { _ = try TraceValidator().validate(file: headerPath) }),
                (1, { _ = try TraceValidator().validate(file: peerPath) }),
            ])
        let ratio = turns[0].median / turns[1].median
        guard !distinct else {
            table.add(
                "… 1,000 different machines × 200 cases (\(formatBytes(size))) vs a trace of that size",
                figure: formatSeconds(turns[0].median), baseline: "trace \(formatSeconds(turns[1].median))",
                ratio: "\(formatRatio(ratio)) the trace's time", target: "(for scale)", met: nil)
            return
        }
        table.add(
            "validate a header of 1,000 machines × 200 cases (\(formatBytes(size))) vs a trace of that size",
            figure: formatSeconds(turns[0].median), baseline: "trace \(formatSeconds(turns[1].median))",
            ratio: "\(formatRatio(ratio)) the trace's time", target: "≤ 1.5×", met: ratio <= 1.5)
        // Memory of a whole `inspector validate` process: inside this process, freed pages of the
        // benchmarks before it are reused and the growth of the peak reads as 0 B.
        guard let inspector = inspectorBesideBenchmark(peer: "/usr/bin/time") else { return }
        var peaks: [Int] = []
        for path in [headerPath, peerPath] {
            guard
                let output = timeShell(
                    "/usr/bin/time -f %M '\(inspector)' validate '\(path)' 2>&1 > /dev/null | tail -1"),
                let kilobytes = Int(output.output.trimmingCharacters(in: .whitespacesAndNewlines))
            else { return }
            peaks.append(kilobytes * 1024)
        }
        table.add(
            "… peak memory of inspector validate on it (whole process)", figure: formatBytes(peaks[0]),
            baseline: "trace of that size \(formatBytes(peaks[1]))", ratio: "-", target: "≤ 64 MB",
            met: peaks[0] <= 64 << 20)
    }

    /// A trace where every transition is caused by the event before it (actions cycling through
    /// 300 names, so that no chain loops), against the same trace without `cause`.
    static func runCauseChain(into table: inout ResultTable, folder: String) throws {
        let sourcePath = "\(folder)/chain-source.jsonl"
        let chainPath = "\(folder)/chain.jsonl"
        let plainPath = "\(folder)/chain-peer.jsonl"
        defer {
            for path in [sourcePath, chainPath, plainPath] { try? FileManager.default.removeItem(atPath: path) }
        }
        _ = try TraceGenerator.write(path: sourcePath, bytes: 50 << 20)
        let text = try String(contentsOfFile: sourcePath, encoding: .utf8)
        var chain = ""
        var plain = ""
        for (index, line) in text.split(separator: "\n").enumerated() {
            guard index > 0, line.contains(#""type":"transition""#), let seqRange = line.range(of: #""seq":"#),
                let seqEnd = line[seqRange.upperBound...].firstIndex(of: ","),
                let seq = Int(line[seqRange.upperBound..<seqEnd]), let actionRange = line.range(of: #""action":""#)
            else {
                chain += line + "\n"
                plain += line + "\n"
                continue
            }
            let offset = line.utf8.distance(from: line.startIndex, to: actionRange.upperBound)
            let renamed = String(line.utf8.prefix(offset))! + "\(seq % 300)_" + String(line.utf8.dropFirst(offset))!
            plain += renamed + "\n"
            chain += renamed.dropLast() + #","cause":\#(seq - 1)}"# + "\n"
        }
        try chain.write(toFile: chainPath, atomically: false, encoding: .utf8)
        try plain.write(toFile: plainPath, atomically: false, encoding: .utf8)
        let chainReport = try TraceValidator().validate(file: chainPath)
        guard chainReport.errors == 0, chainReport.problems.isEmpty else {
            throw BenchmarkError("the cause-chain trace does not validate cleanly")
        }
        let turns = try Measurement.interleaved(
            runs: 7,
            [
                (1, { _ = try TraceValidator().validate(file: chainPath) }),
                (1, { _ = try TraceValidator().validate(file: plainPath) }),
            ])
        let ratio = turns[0].median / turns[1].median
        table.add(
            "validate \(formatBytes(TraceGenerator.size(of: chainPath))), every event caused by the one before, vs no causes",
            figure: formatSeconds(turns[0].median), baseline: "no causes \(formatSeconds(turns[1].median))",
            ratio: "\(formatRatio(ratio)) the time without", target: "≤ 1.5×", met: ratio <= 1.5)
    }
}

/// Resets the kernel's peak-RSS mark for this process (Linux: writing 5 to clear_refs).
func resetPeakMemory() {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
}

/// The process's peak resident size since the last reset, from /proc/self/status (VmHWM).
func currentPeakMemory() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return peakMemoryBytes() }
    return kilobytes * 1024
}
