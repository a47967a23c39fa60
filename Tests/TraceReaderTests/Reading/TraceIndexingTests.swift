import Foundation
import TestSupport
import Testing

@testable import TraceReader

/// `TraceIndexing`: a trace's first part opened at once, the whole indexed in the background,
/// and the first part is the whole trace's beginning.
@Suite struct TraceIndexingTests {
    /// A trace of `count` transitions of one store, seqs from 1, with one malformed line.
    static func lines(count: Int) -> [String] {
        var lines = [#"{"type":"header","format":"rewind-trace","version":1,"machines":{}}"#]
        lines.append(#"{"type":"register","seq":1,"store":"S","state":{"n":0}}"#)
        for seq in 2...count {
            lines.append(
                #"{"type":"transition","seq":\#(seq),"store":"S","action":"add","changed":true,"state":{"n":\#(seq)}}"#)
            if seq == count / 2 { lines.append("{not json") }
        }
        return lines
    }

    @Test func theFirstPartIsTheWholeTracesBeginning() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("big.jsonl")
        try (Self.lines(count: 200).joined(separator: "\n") + "\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        let indexing = try TraceIndexing(path: path, firstBytes: 1000)
        let first = indexing.first
        #expect(first.isPartial)
        #expect(indexing.whole == nil)  // nothing more is read before `start`
        let whole = try indexing.wait().get()
        let opened = try TraceFile(path: path)
        #expect(!whole.isPartial)
        #expect(whole.eventCount == opened.eventCount && whole.lastStep == opened.lastStep)
        #expect(whole.issues == opened.issues)
        #expect(indexing.expectedLastStep == opened.lastStep)
        #expect(indexing.progress == 1)
        // The first part: whole lines from the start, none torn, the same events.
        #expect(first.eventCount > 2 && first.eventCount < whole.eventCount)
        #expect(first.issues.isEmpty)
        for index in 0..<first.eventCount {
            #expect(first.event(at: index) == whole.event(at: index))
        }
        #expect(first.appState(atStep: first.lastStep) == whole.appState(atStep: first.lastStep))
    }

    @Test func aSmallFileIsWholeAtOnce() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("small.jsonl")
        try (Self.lines(count: 5).joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let indexing = try TraceIndexing(path: path)
        #expect(!indexing.first.isPartial)
        #expect(try indexing.wait().get() === indexing.first)
        #expect(indexing.expectedLastStep == 5)
    }

    /// A file whose end is no event: the expected last step is the first part's.
    @Test func anEndWithoutEventsGivesTheFirstPartsLastStep() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("tail.jsonl")
        let text = Self.lines(count: 100).joined(separator: "\n") + "\n" + "{not json\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let indexing = try TraceIndexing(path: path, firstBytes: 500)
        #expect(indexing.first.isPartial)
        #expect(indexing.expectedLastStep == 100)
    }
}
