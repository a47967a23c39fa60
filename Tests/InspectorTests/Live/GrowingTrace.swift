import Foundation
import TestSupport
import TraceReader

/// `RecordedTrace`'s lines written to another file a few at a time, as an app that is still
/// running appends them: the header and the first events, then more, then half a line (a write
/// the app has not finished), then its end.
final class GrowingTrace {
    let recorded: RecordedTrace
    /// The header, then one line per event (seq 1 to 7), each with its `\n`.
    let lines: [String]
    let path: String
    private let handle: FileHandle

    /// Starts the file with the header and events 1 to `events`.
    init(events: Int) throws {
        recorded = try RecordedTrace()
        lines = try traceLines(at: recorded.path).map { $0 + "\n" }
        path = recorded.folder.appendingPathComponent("live.jsonl").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(lines[0...events].joined().utf8))
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
    }

    deinit { try? handle.close() }

    /// Appends events `seqs` whole.
    func append(_ seqs: ClosedRange<Int>) throws {
        try write(seqs.map { lines[$0] }.joined())
    }

    /// Appends the first half of event `seq`'s line; returns how many bytes it appended.
    @discardableResult
    func appendFirstHalf(of seq: Int) throws -> Int {
        let half = String(lines[seq].prefix(lines[seq].count / 2))
        try write(half)
        return half.utf8.count
    }

    /// Appends the rest of event `seq`'s line.
    func appendSecondHalf(of seq: Int) throws {
        try write(String(lines[seq].dropFirst(lines[seq].count / 2)))
    }

    /// The trace as it would be with the header and events 1 to `events`, in memory.
    func file(upTo events: Int) throws -> TraceFile {
        try TraceFile(bytes: Array(lines[0...events].joined().utf8), name: path)
    }

    private func write(_ text: String) throws {
        try handle.write(contentsOf: Data(text.utf8))
    }
}

/// The `seq`s of the event lines `log` printed, in order.
func loggedSeqs(_ output: String) -> [Int] {
    output.split(separator: "\n").compactMap { line in
        line.split(separator: " ", maxSplits: 1).first.flatMap { Int($0) }
    }
}
