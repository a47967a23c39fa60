import Dispatch
import Foundation
@_spi(RewindInternals) import RewindSupport
import TraceQueries
import TraceReader

/// `inspector coverage`'s engine against `inspector validate`'s on the same 1,000 small traces
/// (about 20 KB each, as a test suite records them), each reading the files several at a time
/// on every core, timed in turns: coverage must read a folder of traces as fast as validation.
enum CoverageBenchmark {
    static func run(into table: inout ResultTable, folder: String, count: Int = 1000) throws {
        let directory = "\(folder)/coverage"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        print("Coverage: writing \(count) small traces…")
        var paths: [String] = []
        var bytes = 0
        for index in 0..<count {
            let path = "\(directory)/run-\(index).jsonl"
            _ = try TraceGenerator.write(path: path, bytes: 20_000)
            bytes += TraceGenerator.size(of: path)
            paths.append(path)
        }
        let sample = TraceCoverage.measure(files: paths)
        guard sample.failures.isEmpty, sample.traces == count, sample.takenCount > 0 else {
            throw BenchmarkError("the generated traces did not give a coverage")
        }
        let turns = try Measurement.interleaved([
            (1, { _ = TraceCoverage.measure(files: paths) }),
            (1, { validateAll(paths) }),
        ])
        let ratio = turns[0].median / turns[1].median
        table.add(
            "coverage of \(count) traces (\(formatBytes(bytes))) vs validating them",
            figure: formatSeconds(turns[0].median), baseline: "validate \(formatSeconds(turns[1].median))",
            ratio: "\(formatRatio(ratio)) validate's time", target: "≤ 1.2× validate", met: ratio <= 1.2)
    }

    /// Validates every file, one per core at a time, as `inspector validate` does.
    static func validateAll(_ paths: [String]) {
        let next = AtomicCell<Int>(0)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        DispatchQueue.concurrentPerform(iterations: max(1, min(cores, paths.count))) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < paths.count else { return }
                _ = try? TraceValidator().validate(file: paths[index])
            }
        }
    }
}
