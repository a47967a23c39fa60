import Foundation
import Recorder
import TestSupport
import Testing
import TraceReader

/// README.md's "Recording a store": its code compiles (it is `ReadmeExample`), does what the
/// README says, and is shown there verbatim.
@Suite struct ReadmeExampleTests {
    @Test func theStoreRecordsTheDoubleLoadAndTheObserverIsToldOnce() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("run.jsonl")
        let (catalog, printed) = try ReadmeExample.run(tracePath: path)
        #expect(catalog.state == .loaded(["Dune"]))
        #expect(printed == ["the catalog changed"])
        let report = try TraceValidator().validate(file: path)
        #expect(report.problems.map(\.kind) == [.illegal])
        let events = try jsonObjects(Array(try traceLines(at: path).dropFirst()))
        #expect(events[2]["changed"] as? Bool == false && events[2]["stack"] is [String])
    }

    @Test func ownStoresAreRecordedToo() throws {
        let sink = MemorySink()
        let wishlist = ReadmeExample.Wishlist(recorder: try TraceRecorder(sink: sink))
        wishlist.save("HAT")
        let event = try #require(try jsonObjects(sink.lines).last)
        #expect(event["store"] as? String == "Wishlist" && event["action"] as? String == "save")
    }

    @Test func theReadmeShowsTheCompiledCode() throws {
        let root = RecordingOtherStoresTests.root
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(
            contentsOf: root.appendingPathComponent("Tests/RecorderTests/Documentation/ReadmeExample.swift"),
            encoding: .utf8)
        let examples = RecordingOtherStoresTests.examples(in: source)
        #expect(examples.count == 4)
        for example in examples {
            #expect(
                readme.contains("```swift\n\(example)```\n"),
                "README.md does not show this code of ReadmeExample.swift as it is; copy it there:\n\(example)")
        }
    }
}
