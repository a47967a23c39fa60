import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How one figure was measured: several runs of a batch of operations, the median kept.
struct Measurement {
    /// Seconds per operation, one value per run.
    var samples: [Double]

    var median: Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Runs `body` (which performs `operations` operations) `runs` times after one warm-up run,
    /// and records seconds per operation.
    static func run(runs: Int = 7, operations: Int = 1, warmUp: Bool = true, _ body: () throws -> Void) rethrows
        -> Measurement
    {
        if warmUp { try body() }
        var samples: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            let end = DispatchTime.now().uptimeNanoseconds
            samples.append(Double(end - start) / 1e9 / Double(operations))
        }
        return Measurement(samples: samples)
    }

    /// Runs several batches in turns, `runs` rounds after one warm-up round, and records seconds
    /// per operation for each: a batch and its baseline then see the same moments of a noisy
    /// machine, instead of one running while the machine is quiet and the other while it is not.
    static func interleaved(runs: Int = 7, _ batches: [(operations: Int, body: () throws -> Void)]) throws
        -> [Measurement]
    {
        for batch in batches { try batch.body() }
        var samples = [[Double]](repeating: [], count: batches.count)
        for _ in 0..<runs {
            for (index, batch) in batches.enumerated() {
                let start = DispatchTime.now().uptimeNanoseconds
                try batch.body()
                let end = DispatchTime.now().uptimeNanoseconds
                samples[index].append(Double(end - start) / 1e9 / Double(batch.operations))
            }
        }
        return samples.map { Measurement(samples: $0) }
    }
}

/// The process's peak resident memory so far, in bytes (`getrusage`).
func peakMemoryBytes() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss * 1024
}

/// The CPU time (user and system, every thread) used so far by this process (`.current`) or by
/// its children that have been waited for (`.children`, such as the commands `timeShell` ran), in
/// seconds. On a shared machine a command's wall time depends on how many cores it was given;
/// its CPU time much less, so the two together tell load from cost.
func cpuSeconds(_ of: CPUTimeOf) -> Double {
    var usage = rusage()
    getrusage(of == .current ? RUSAGE_SELF.rawValue : RUSAGE_CHILDREN.rawValue, &usage)
    let seconds = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec
    let microseconds = usage.ru_utime.tv_usec + usage.ru_stime.tv_usec
    return Double(seconds) + Double(microseconds) / 1e6
}

/// Whose CPU time `cpuSeconds` reads.
enum CPUTimeOf {
    case current
    case children
}

/// Runs a shell command, returning its wall time in seconds and its standard output; nil when
/// the command is not installed or fails. (`popen`, not Foundation's `Process`, whose
/// `waitUntilExit` was seen to wait forever on Linux; see Tests/Support/ChildProcess.swift.)
func timeShell(_ command: String) -> (seconds: Double, output: String)? {
    let start = DispatchTime.now().uptimeNanoseconds
    guard let stream = popen(command + " 2>/dev/null", "r") else { return nil }
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&buffer, 1, buffer.count, stream)
        if count <= 0 { break }
        output.append(contentsOf: buffer[0..<count])
    }
    let status = pclose(stream)
    let end = DispatchTime.now().uptimeNanoseconds
    guard status == 0 else { return nil }
    return (Double(end - start) / 1e9, String(decoding: output, as: UTF8.self))
}

/// Whether a command is on the PATH.
func isInstalled(_ tool: String) -> Bool {
    timeShell("command -v \(tool)") != nil
}

/// The release `inspector` built beside this benchmark, for measuring whole processes; nil, with
/// a note printed, when it is not there or `tool` (the peer) is not installed.
func inspectorBesideBenchmark(peer tool: String) -> String? {
    let inspector = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("inspector").path
    guard FileManager.default.isExecutableFile(atPath: inspector), isInstalled(tool) else {
        print("  (no inspector beside the benchmark, or no \(tool): build it with `swift build -c release`)")
        return nil
    }
    return inspector
}
