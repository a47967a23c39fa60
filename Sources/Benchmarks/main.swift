// Rewind's benchmarks: `swift run -c release Benchmarks [--large] [--only NAME]`, or
// `--write-trace PATH` to keep the validation rows' trace for measurements by hand.
// Each figure is measured beside its baseline in the same run (this machine is noisy), several
// times, keeping the median; the table at the end is Markdown for the README.
import Foundation

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--help") || arguments.contains("-h") {
    print(
        """
        Usage: swift run -c release Benchmarks [--large]
               [--only recording|recording-off|threads|big-states|decoding|validation|validation-header|coverage|
                       streaming|opening|diff|timetravel|replay|search|plain-values|mcp]
               swift run -c release Benchmarks --write-trace PATH

        Measures Rewind against baselines run in the same process and prints a table:
        figure, baseline, ratio, target, and whether the target is met. The traces are
        generated in a temporary folder and deleted. --large opens a 1 GB trace (instead of
        200 MB) for the opening and mcp measurements. validation-header runs only the validation row
        of a header of 1,000 machines. plain-values runs only the big-states row of
        plain-value items. --write-trace PATH writes the trace of the validation rows (806,600
        events, 187-189 MB) at PATH, keeps it and measures nothing: for the measurements of
        whole processes by hand (docs/PERFORMANCE.md).
        """)
    exit(0)
}
if let flag = arguments.firstIndex(of: "--write-trace") {
    guard arguments.index(after: flag) < arguments.endIndex else {
        FileHandle.standardError.write(Data("--write-trace needs a PATH\n".utf8))
        exit(2)
    }
    let path = arguments[arguments.index(after: flag)]
    let events = try TraceGenerator.write(path: path, bytes: 200 << 20)
    print("\(path): \(events) events, \(formatBytes(TraceGenerator.size(of: path)))")
    exit(0)
}
let only = arguments.firstIndex(of: "--only").flatMap {
    arguments.index(after: $0) < arguments.endIndex ? arguments[arguments.index(after: $0)] : nil
}
let folder = NSTemporaryDirectory() + "rewind-bench-\(getpid())"
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }

var table = ResultTable()
do {
    if only == nil || only == "recording" { try RecordingBenchmark.run(into: &table, folder: folder) }
    if only == nil || only == "recording" || only == "threads" {
        try ConcurrentRecordingBenchmark.run(into: &table, folder: folder)
    }
    if only == nil || only == "recording" || only == "big-states" { try LargeStateBenchmark.run(into: &table) }
    if only == nil || only == "decoding" { try DecodingBenchmark.run(into: &table) }
    if only == nil || only == "diff" { try DiffBenchmark.run(into: &table) }
    if only == nil || only == "timetravel" { try TimeTravelBenchmark.run(into: &table, folder: folder) }
    if only == nil || only == "replay" { try ReplayBenchmark.run(into: &table, folder: folder) }
    if only == nil || only == "validation" { try ValidationBenchmark.run(into: &table, folder: folder) }
    if only == "plain-values" { try LargeStateBenchmark.runPlainValues(50_000, into: &table) }
    if only == "validation-header" { try ValidationBenchmark.runManyMachines(into: &table, folder: folder) }
    if only == nil || only == "coverage" { try CoverageBenchmark.run(into: &table, folder: folder) }
    if only == nil || only == "streaming" { try StreamingBenchmark.run(into: &table, folder: folder) }
    if only == nil || only == "search" { try SearchBenchmark.run(into: &table, folder: folder) }
    if only == nil || only == "opening" {
        try OpeningBenchmark.run(into: &table, folder: folder, megabytes: arguments.contains("--large") ? 1024 : 200)
    }
    if only == nil || only == "mcp" {
        try MCPBenchmark.run(into: &table, folder: folder, megabytes: arguments.contains("--large") ? 1024 : 200)
    }
    // Last: once a subscriber has been told, every action of the process looks for a cause.
    if only == nil || only == "recording" || only == "recording-off" { try RecordingOffBenchmark.run(into: &table) }
} catch {
    FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
    exit(1)
}
print("\n" + table.markdown())
print("\nPeak memory of this process: \(formatBytes(peakMemoryBytes()))")
