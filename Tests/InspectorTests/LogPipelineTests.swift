import Foundation
import TestSupport
import Testing

@testable import Inspector
@testable import TraceReader

/// `log` of a file of more than one part reads it on two threads (`TraceStream`'s pipeline):
/// its rows, the problems marked on them, what it says on standard error and the summary at the
/// end are those of the reading on one thread, wherever the parts end.
@Suite struct LogPipelineTests {
    /// What `log` prints (as `Log.run` makes it), reading `path` in parts of `partSize` bytes
    /// on `parallelism` threads.
    static func log(
        _ path: String, options: LogRows.Options = LogRows.Options(), partSize: Int, parallelism: Int
    ) throws -> (out: String, err: String) {
        var validator = TraceValidator()
        validator.blockSize = partSize * 4
        validator.parallelism = parallelism
        let console = Console.capturing()
        var rows = LogRows(path: path, options: options, console: console)
        let report = try TraceStream(path: path, validator: validator).forEachScannedLine { rows.add($0) }
        rows.finish(report)
        return (console.out.text, console.err.text)
    }

    /// Problems land on their rows across part boundaries, with a torn last line, in version 1
    /// and 2 traces; with and without options.
    @Test(arguments: [(1, 1, false), (2, 1, true), (3, 2, false), (4, 2, true)] as [(UInt64, Int, Bool)])
    func rowsReadOnTwoThreadsAreThoseReadOnOne(seed: UInt64, version: Int, torn: Bool) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("generated.jsonl")
        try LogStreamingTests.generatedTrace(seed: seed, version: version, torn: torn).write(
            toFile: path, atomically: false, encoding: .utf8)
        let allOptions = [
            LogRows.Options(), LogRows.Options(store: "CartStore"), LogRows.Options(onlyProblems: true),
            LogRows.Options(action: "add"),
        ]
        for options in allOptions {
            let alone = try Self.log(path, options: options, partSize: 1 << 20, parallelism: 1)
            #expect(alone.out == inspector(["log", path] + Self.arguments(options)).out)
            for partSize in [97, 4096, 65536] {
                let split = try Self.log(path, options: options, partSize: partSize, parallelism: 2)
                #expect(split.out == alone.out, "part size \(partSize), \(options)")
                #expect(split.err == alone.err, "part size \(partSize), \(options)")
            }
        }
    }

    /// The command-line arguments of `options`.
    static func arguments(_ options: LogRows.Options) -> [String] {
        var arguments: [String] = []
        if let store = options.store { arguments += ["--store", store] }
        if let action = options.action { arguments += ["--action", action] }
        if options.onlyProblems { arguments.append("--problems") }
        return arguments
    }
}
