import Foundation
import Observation
import Recorder
import Synchronization
import TestSupport
import Testing
import TraceReader

/// The examples of the article on recording other stores: they compile (they are in this
/// target), they record what the article says, and the article shows exactly their code.
@Suite struct RecordingOtherStoresTests {
    static let root = packageRoot

    @Test func theObservableModelIsRecordedAndStillObserved() throws {
        let sink = MemorySink()
        let wishlist = Wishlist(recorder: try TraceRecorder(sink: sink))
        let told = Mutex(0)
        withObservationTracking {
            _ = wishlist.items
        } onChange: {
            told.withLock { $0 += 1 }
        }
        wishlist.add("MUG")
        wishlist.add("MUG")
        wishlist.share()
        #expect(told.withLock { $0 } == 1)
        let events = try jsonObjects(Array(sink.lines.dropFirst()))
        #expect(events.map { $0["action"] as? String } == [nil, "add", "add", "share"])
        #expect(events.map { $0["changed"] as? Bool } == [nil, true, false, true])
        #expect(events[1]["args"] as? [String: String] == ["sku": "MUG"])
        #expect(events[3]["state"] as? NSDictionary == ["items": ["MUG"], "isShared": true])
        #expect(TraceValidator().validate(bytes: sink.data).problems.isEmpty)
    }

    @Test func theWrappedReducerRecordsEachActionByItsCase() throws {
        let sink = MemorySink()
        let store = makeTodoStore(recorder: try TraceRecorder(sink: sink))
        store.dispatch(.addItem(sku: "MUG"))
        store.dispatch(.addItem(sku: "HAT"))
        store.dispatch(.removeItem(sku: "MUG"))
        store.dispatch(.clear)
        #expect(store.state.items.isEmpty)
        let events = try jsonObjects(Array(sink.lines.dropFirst()))
        #expect(events.first?["store"] as? String == "TodoStore")
        #expect(events.map { $0["action"] as? String } == [nil, "addItem", "addItem", "removeItem", "clear"])
        #expect(
            events.map { $0["args"] as? [String: String] } == [
                nil, ["sku": "MUG"], ["sku": "HAT"], ["sku": "MUG"], nil,
            ])
        #expect(events.map { $0["state"] as? NSDictionary }.last == ["items": [String]()])
    }

    /// Each `// Example:` … `// End of example` part of the example files is, line for line, a
    /// code block of the article, and no example is longer than 30 lines.
    @Test(arguments: ["ObservableModelExample.swift", "ReducerExample.swift"])
    func theArticleShowsTheCompiledCode(file: String) throws {
        let article = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/Recorder/Documentation.docc/RecordingOtherStores.md"),
            encoding: .utf8)
        let source = try String(
            contentsOf: Self.root.appendingPathComponent("Tests/RecorderTests/Documentation/\(file)"), encoding: .utf8)
        let examples = Self.examples(in: source)
        #expect(!examples.isEmpty)
        for example in examples {
            #expect(example.split(separator: "\n").count <= 30, "an example of \(file) is longer than 30 lines")
            #expect(
                article.contains("```swift\n\(example)```\n"),
                "the article does not show this code of \(file) as it is; copy it into the article:\n\(example)")
        }
    }

    /// The text between each `// Example: …` line and the next `// End of example` line, without
    /// the indentation those lines have (`documentationExamples(in:)`).
    static func examples(in source: String) -> [String] {
        documentationExamples(in: source)
    }
}
