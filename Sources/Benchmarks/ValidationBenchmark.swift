import Foundation
import TraceReader

/// Validation of a 200 MB trace against `jq` checking from/to on every event (against the
/// header's machines; and, for scale, only printing them) and `grep -c` on a fixed string, all on the same file in the same run. Memory: the peak resident size of the
/// validation alone (the kernel's high-water mark is reset first).
enum ValidationBenchmark {
    static func run(into table: inout ResultTable, folder: String, megabytes: Int = 200) throws {
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
        let validating: (operations: Int, body: () throws -> Void) = (
            1, { _ = try TraceValidator().validate(file: path) }
        )
        let rewind: Measurement
        if isInstalled("grep") {
            let turns = try Measurement.interleaved([
                validating,
                (1, { _ = timeShell("grep -c -F '\"transition\"' '\(path)'") }),
            ])
            let grep = turns[1]
            rewind = turns[0]
            let ratio = rewind.median / grep.median
            table.add(
                "validate \(formatBytes(size)) (\(events) events) vs grep -c", figure: formatSeconds(rewind.median),
                baseline: "grep -c \(formatSeconds(grep.median))", ratio: "\(formatRatio(ratio)) grep's time",
                target: "≤ 2.5× grep", met: ratio <= 2.5)
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
                target: "≥ 30× faster", met: speedup >= 30)
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
