import Recorder
@_spi(RewindInternals) import RewindSupport
import TestSupport
import Testing

/// The store's side of time travel, in the Recorder: a restore sets the state under the lock,
/// writes a `restore` event, and tells observers and subscribers with the actions they send
/// dropped (the TimeTravel library decodes and drives it).
@Suite struct RestoreEventTests {
    @Test func aRestoreWritesARestoreEventWithItsCaseStepAndTrace() throws {
        let sink = MemorySink()
        let catalog = CatalogStore(recorder: try TraceRecorder(sink: sink))
        catalog.toLoading()
        let announce = catalog.restore(to: .loaded(["A"]), step: 7, trace: "run.jsonl")
        #expect(announce != nil)
        #expect(catalog.state == .loaded(["A"]))
        let line = try #require(sink.lines.last)
        #expect(line.hasPrefix("{\"type\":\"restore\",\"seq\":3,\"elapsed\":"))
        #expect(
            line.hasSuffix(
                ",\"store\":\"CatalogStore\",\"case\":\"loaded\",\"state\":{\"loaded\":{\"_0\":[\"A\"]}},\"step\":7,\"trace\":\"run.jsonl\"}"
            ))
        // The same state again: recorded, and nothing to tell.
        #expect(catalog.restore(to: .loaded(["A"]), step: 7, trace: nil) == nil)
        #expect(sink.lines.last?.hasSuffix("\"state\":{\"loaded\":{\"_0\":[\"A\"]}},\"step\":7}") == true)
    }

    @Test func subscribersAreToldOfARestoreAndWhatTheySendIsDropped() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink)
        let catalog = CatalogStore(recorder: recorder)
        let follower = CatalogStore(recorder: recorder)
        let told = Lock<[Bool]>([])
        let token = catalog.subscribe { state in
            guard state != .idle else { return }
            told.withLock { $0.append(ActionCause.current.isRestore) }
            follower.toLoading()
        }
        defer { token.cancel() }
        catalog.toLoading()  // told, and the follower follows
        let eventsBefore = sink.lines.count
        catalog.restore(to: .loaded(["A"]), step: 2, trace: nil)?()
        #expect(told.withLock { $0 } == [false, true])
        #expect(sink.lines.count == eventsBefore + 1)  // the restore only: the follower's action was dropped
        #expect(follower.state == .loading)
        follower.finish([])  // afterwards, actions run as usual
        #expect(follower.state == .loaded([]))
        #expect(!ActionCause.current.isRestore)
    }

    @Test func aRecordingRecordsWhatItsModelRecordsDuringARestore() throws {
        let sink = MemorySink()
        let recording = StoreRecording(
            name: "Wishlist", initialState: [String](), recorder: try TraceRecorder(sink: sink))
        #expect(recording.restore(to: ["MUG"], step: 1, trace: nil))
        ActionCause.restoring.run { recording.record("save", state: ["MUG", "HAT"]) }
        #expect(recording.state == ["MUG", "HAT"])
        #expect(sink.lines.last?.contains("\"action\":\"save\"") == true)
        #expect(sink.lines.last?.contains("cause") == false)
    }

    @Test func anEncoderThatRevealsSecretsWritesTheirValues() throws {
        struct Login: Encodable {
            var user = "alice"
            var password = Secret("hunter2")
        }
        #expect(try StateEncoder().encodeToString(Login()) == "{\"user\":\"alice\",\"password\":\"<redacted>\"}")
        #expect(
            try StateEncoder(revealingSecrets: ()).encodeToString(Login())
                == "{\"user\":\"alice\",\"password\":\"hunter2\"}")
    }
}
