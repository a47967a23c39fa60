import Foundation
import TestSupport
import Testing

@testable import TraceReader

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `TraceFile(path:)` is given: files that are not traces, pipes, and files that change
/// while they are open.
@Suite struct TraceFileSourceTests {
    typealias F = ReaderFixture

    private func openError(_ path: String) -> TraceOpenError? {
        do {
            _ = try TraceFile(path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func aMissingFileSaysSo() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("missing.jsonl")
        let error = try #require(openError(path))
        #expect(error.kind == .unreadable)
        #expect(error.line == nil)
        #expect(error.description == "\(path): no such file; check the path")
    }

    @Test func aDirectoryIsNotATrace() throws {
        let folder = try TemporaryFolder()
        let error = try #require(openError(folder.url.path))
        #expect(error.kind == .unreadable)
        #expect(error.description.hasPrefix(folder.url.path + ": is a directory"))
    }

    @Test(.enabled(if: getuid() != 0, "root reads any file"))
    func anUnreadableFileSaysWhatToCheck() throws {
        let folder = try TemporaryFolder()
        let path = try F.write(Array(F.text([F.header()]).utf8), named: "secret.jsonl", in: folder)
        chmod(path, 0)
        let error = try #require(openError(path))
        #expect(error.kind == .unreadable)
        #expect(error.message.contains("permissions"))
    }

    @Test func devNullIsSaidToBeADeviceNotAnEmptyFile() throws {
        let error = try #require(openError("/dev/null"))
        #expect(error.kind == .notATrace)
        #expect(error.description.hasPrefix("/dev/null:1: is a character device that gave no bytes"))
    }

    @Test func anEmptyFileIsNotATrace() throws {
        let folder = try TemporaryFolder()
        let path = try F.write([], named: "empty.jsonl", in: folder)
        let error = try #require(openError(path))
        #expect(error.kind == .notATrace)
        #expect(error.line == 1)
        #expect(error.message.hasPrefix("the file is empty"))
    }

    @Test func aBinaryFileIsNotATrace() throws {
        let folder = try TemporaryFolder()
        // A PNG's signature and a little of what follows, NUL bytes included.
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52]
        png += (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let path = try F.write(png, named: "picture.png", in: folder)
        let error = try #require(openError(path))
        #expect(error.kind == .notATrace)
        #expect(error.line == 1)
        #expect(error.message.contains("not JSON"))
        #expect(error.message.contains("0x89"))
    }

    @Test func aTraceFileIsReadFromDisk() throws {
        let folder = try TemporaryFolder()
        let lines = F.generated(events: 50)
        let path = try F.write(Array(F.text(lines).utf8), named: "run.jsonl", in: folder)
        let trace = try TraceFile(path: path)
        #expect(trace.path == path)
        #expect(trace.eventCount == 50)
        let expected = F.replay(lines, through: 50)
        for step in 0...50 { #expect(trace.appState(atStep: step) == expected[step], "step \(step)") }
    }

    @Test func aVeryLongLineIsReadWhole() throws {
        // A state of 3 MB: longer than one read, so the line is read in growing pieces.
        let folder = try TemporaryFolder()
        let big = String(repeating: "x", count: 3 << 20)
        let lines = [
            F.header(machines: "{}"), F.register(1, "A", state: "\"\(big)\""), F.transition(2, "A", state: "2"),
        ]
        let path = try F.write(Array(F.text(lines).utf8), named: "big.jsonl", in: folder)
        let trace = try TraceFile(path: path)
        #expect(trace.eventCount == 2)
        #expect(trace.state(of: "A", atStep: 1)?.stringValue?.utf8.count == big.utf8.count)
        #expect(trace.state(of: "A", atStep: 2) == .number("2"))
    }

    /// The read end of a pipe into which a thread writes `bytes`, then closes it.
    private func makePipe(writing bytes: [UInt8]) throws -> Int32 {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw TestFailure("pipe() failed") }
        let writeEnd = ends[1]
        let writer = Thread {
            bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                var offset = 0
                while offset < buffer.count {
                    let written = write(writeEnd, base + offset, buffer.count - offset)
                    if written <= 0 { break }  // the reader closed its end
                    offset += written
                }
            }
            close(writeEnd)
        }
        writer.start()
        return ends[0]
    }

    @Test func aPipeIsReadWhole() throws {
        let lines = F.generated(events: 2000)  // more than a pipe holds at once
        let readEnd = try makePipe(writing: Array(F.text(lines).utf8))
        defer { close(readEnd) }
        let trace = try TraceFile(path: "/dev/fd/\(readEnd)")
        #expect(trace.eventCount == 2000)
        #expect(trace.appState(atStep: 2000) == F.replay(lines, atStep: 2000))
    }

    @Test func aPipeLargerThanTheLimitIsRefusedWithAClearMessage() throws {
        let readEnd = try makePipe(writing: Array(F.text(F.generated(events: 200)).utf8))
        defer { close(readEnd) }
        #expect {
            _ = try TraceLoader.open(path: "/dev/fd/\(readEnd)", streamLimit: 1000)
        } throws: { error in
            guard let error = error as? TraceOpenError else { return false }
            return error.kind == .unreadable && error.message.hasPrefix("more than 1000 bytes came from this pipe")
                && error.message.contains("save the trace to a file")
        }
    }

    @Test func aPipeWhoseFirstLineIsNotAHeaderIsRefusedWhenTheLineEnds() throws {
        // An object on line 1 that is not a header, and more than the limit after it: the
        // header's own message, not "more than 1000 bytes" (an endless device such as
        // /dev/urandom, when it starts with `{`, was read up to 1 GiB before being refused).
        let body = String(repeating: #"{"n":1}"# + "\n", count: 2000)
        let readEnd = try makePipe(writing: Array((#"{"type":"transition","seq":1}"# + "\n" + body).utf8))
        defer { close(readEnd) }
        #expect {
            _ = try TraceLoader.open(path: "/dev/fd/\(readEnd)", streamLimit: 1000)
        } throws: { error in
            guard let error = error as? TraceOpenError else { return false }
            return error.kind == .notATrace && error.line == 1 && !error.message.hasPrefix("more than")
        }
    }

    @Test func aPipeOfZerosIsRefusedAtOnce() throws {
        // /dev/zero never ends: the first bytes show it is not a trace.
        let error = try #require(openError("/dev/zero"))
        #expect(error.kind == .notATrace)
        #expect(error.line == 1)
    }

    @Test func aFileThatGrowsAfterOpeningIsReadAsItWas() throws {
        let folder = try TemporaryFolder()
        let lines = F.generated(events: 10)
        let path = try F.write(Array(F.text(lines).utf8), named: "live.jsonl", in: folder)
        let trace = try TraceFile(path: path)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((F.transition(11, "Cart", state: "11") + "\n" + #"{"type":"tr"#).utf8))
        try handle.close()

        #expect(trace.eventCount == 10)
        #expect(trace.issues.isEmpty)
        #expect(trace.event(at: 9)?.seq == 10)
        #expect(trace.appState(atStep: 11) == F.replay(lines, through: 10)[10])

        let again = try TraceFile(path: path)
        #expect(again.eventCount == 11)
        #expect(again.issues.map(\.kind) == [.truncated])
        #expect(again.state(of: "Cart", atStep: 11) == .number("11"))
    }

    @Test func aFileTruncatedAfterOpeningGivesNilNotACrash() throws {
        let folder = try TemporaryFolder()
        let lines = F.generated(events: 10)
        let path = try F.write(Array(F.text(lines).utf8), named: "replaced.jsonl", in: folder)
        let trace = try TraceFile(path: path)
        #expect(truncate(path, off_t(F.header(machines: "{}").utf8.count + 1)) == 0)
        for index in 0..<10 { #expect(trace.event(at: index) == nil) }
        #expect(trace.appState(atStep: 10).isEmpty)
        #expect(trace.eventCount == 10)
    }

    @Test func aFileRewrittenAfterOpeningDoesNotPassOffOtherLinesAsItsEvents() throws {
        let folder = try TemporaryFolder()
        let path = try F.write(Array(F.text(F.generated(events: 10)).utf8), named: "rewritten.jsonl", in: folder)
        let trace = try TraceFile(path: path)
        // Same length, other seqs: a new recording in place of the old one.
        let other = F.text(F.generated(events: 10)).replacingOccurrences(of: #""seq":"#, with: #""seq":9"#)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(other.utf8))
        try handle.close()
        for index in 0..<10 { #expect(trace.event(at: index) == nil) }
    }

    /// The throwing readers never pass off a line that is gone as an empty state.
    @Test func theReadersThatThrowNameTheLineThatCanNoLongerBeRead() throws {
        let folder = try TemporaryFolder()
        let lines = F.generated(events: 10)
        let path = try F.write(Array(F.text(lines).utf8), named: "cut.jsonl", in: folder)
        let trace = try TraceFile(path: path)
        let store = try #require(trace.storeNames.first)
        let stateBefore = try trace.readAppState(atStep: 10)
        #expect(!stateBefore.isEmpty)
        #expect(truncate(path, off_t(F.header(machines: "{}").utf8.count + 1)) == 0)
        #expect(throws: TraceChangedError(path: path, line: 2)) { try trace.readEvent(at: 0) }
        #expect(try trace.readEvent(at: 10) == nil)  // out of range: no event, no error
        #expect(throws: TraceChangedError.self) { try trace.readAppState(atStep: 10) }
        #expect(throws: TraceChangedError.self) { try trace.readState(of: store, atStep: 10) }
        #expect(try trace.readAppState(atStep: 0).isEmpty)  // step 0 reads no line
        let error = try #require(throws: TraceChangedError.self) { try trace.readAppState(atStep: 10) }
        #expect(error.description.hasPrefix("\(path):"))
        #expect(error.description.contains("can no longer be read"))
    }
}
