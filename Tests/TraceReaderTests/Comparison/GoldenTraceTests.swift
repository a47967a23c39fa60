import Testing

@testable import TraceQueries

@Suite struct GoldenTraceTests {
    typealias C = TraceComparisonTests

    private func bytes(_ lines: [String]) -> [UInt8] {
        Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    @Test func aRecordingThatMatchesPassesAndOneThatDiffersFailsWithTheReport() throws {
        let golden = try ValidationTemporaryFile(bytes(C.run))
        #expect(try GoldenTrace.check(bytes(C.run), against: golden.path, ignoring: [], record: false) == .matched)
        var changed = C.run
        changed[3] = C.turn(3, "on", "off", state: #"{"level":1,"at":"10:01"}"#)
        do {
            try GoldenTrace.check(bytes(changed), against: golden.path, ignoring: [], record: false)
            Issue.record("a different recording passed")
        } catch {
            #expect(error.difference?.position == 3)
            #expect(error.description.hasPrefix("\(golden.path) and the recording differ at event 3: state\n"))
            #expect(error.description.contains("-   level: 0\n+   level: 1\n"))
            #expect(error.description.contains("REWIND_RECORD_GOLDEN=1 swift test"))
            // What an XCTest or a Swift Testing failure shows.
            #expect("\(error)" == error.description)
        }
        #expect(
            try GoldenTrace.check(bytes(changed), against: golden.path, ignoring: ["Light.level"], record: false)
                == .matched)
    }

    @Test func recordingWritesTheGoldenFileWhole() throws {
        let folder = try ValidationTemporaryFile([])
        let path = folder.folder + "/golden.jsonl"
        do {
            try GoldenTrace.check(bytes(C.run), against: path, ignoring: [], record: false)
            Issue.record("a missing golden trace passed")
        } catch {
            #expect(error.description.contains("the golden trace does not exist; record it: REWIND_RECORD_GOLDEN=1"))
            #expect(error.difference == nil)
        }
        // Recording writes the file and fails once, so that a run that records never passes.
        expectRecorded { try GoldenTrace.check(bytes(C.run), against: path, ignoring: [], record: true) }
        #expect(try GoldenTrace.check(bytes(C.run), against: path, ignoring: [], record: false) == .matched)
        // Recording again what the file holds already passes and writes nothing.
        #expect(try GoldenTrace.check(bytes(C.run), against: path, ignoring: [], record: true) == .matched)
        let shorter = bytes(Array(C.run.prefix(2)))
        expectRecorded { try GoldenTrace.check(shorter, against: path, ignoring: [], record: true) }
        #expect(try GoldenTrace.check(shorter, against: path, ignoring: [], record: false) == .matched)
    }

    private func expectRecorded(_ body: () throws -> GoldenTrace.Outcome) {
        do {
            _ = try body()
            Issue.record("a recording passed")
        } catch let error as GoldenTraceMismatch {
            #expect(error.description.contains("recorded (REWIND_RECORD_GOLDEN is set), so this check fails once"))
            #expect(error.difference == nil)
        } catch {
            Issue.record("unexpected error: \(error)")
        }
    }

    @Test func theEnvironmentVariableRecordsWhenSetToAnythingButZero() {
        #expect(GoldenTrace.isRecording("1"))
        #expect(GoldenTrace.isRecording("yes"))
        #expect(!GoldenTrace.isRecording("0"))
        #expect(!GoldenTrace.isRecording(""))
        #expect(!GoldenTrace.isRecording(nil))
    }

    @Test func anIgnoredPathThatCannotBeReadFails() {
        #expect(throws: GoldenTraceMismatch.self) {
            try GoldenTrace.check([], against: "/nonexistent", ignoring: ["a["], record: false)
        }
    }
}
