import Recorder
import Testing
import TimeTravel
import TraceReader

/// A redacted value in an array is kept live by the item it belongs to (its `id`), never by
/// its index: a restore never gives one item another's password.
@Suite struct RedactedItemTests {
    struct Document: Codable, Equatable, Sendable {
        var id: String
        var password: String
    }

    struct VaultState: Codable, Equatable, Sendable {
        var documents: [Document] = []
    }

    final class VaultStore: Store<VaultState>, @unchecked Sendable {
        init(recorder: TraceRecorder) { super.init(initialState: VaultState(), recorder: recorder) }
        func add(_ document: Document) { send { $0.documents.append(document) } }
        func remove(_ id: String) { send { $0.documents.removeAll { $0.id == id } } }
        func moveFirstToEnd() { send { $0.documents.append($0.documents.removeFirst()) } }
    }

    struct Note: Codable, Equatable, Sendable { var password: String }
    final class NotesStore: Store<[Note]>, @unchecked Sendable {}

    let sink = MemorySink()
    let vault: VaultStore

    init() throws {
        let recorder = try TraceRecorder(sink: sink, app: "Vault", redactedKeys: ["password"])
        vault = VaultStore(recorder: recorder)
    }

    func restore(_ step: Int) throws -> RestoreReport {
        try Restorer([RestorableStore(vault)]).restore(
            from: try TraceFile(bytes: sink.data, name: "vault.jsonl"), atStep: step)
    }

    @Test func aRemovedItemsPasswordIsNeverAnotherItems() throws {
        vault.add(Document(id: "d1", password: "pw-1"))  // step 2
        vault.add(Document(id: "d2", password: "pw-2"))  // step 3
        vault.remove("d1")  // step 4
        let error = #expect(throws: RestoreError.self) { try restore(3) }
        #expect(error?.kind == .redacted)
        #expect(error?.message.contains(#"no item with the id "d1""#) == true)
        #expect(error?.message.contains("another case") == false)
        #expect(vault.state.documents == [Document(id: "d2", password: "pw-2")])  // nothing restored
    }

    @Test func anItemThatMovedKeepsItsOwnPassword() throws {
        vault.add(Document(id: "d1", password: "pw-1"))  // step 2
        vault.add(Document(id: "d2", password: "pw-2"))  // step 3
        vault.moveFirstToEnd()  // step 4: d2, d1
        let report = try restore(3)
        #expect(vault.state.documents == [Document(id: "d1", password: "pw-1"), Document(id: "d2", password: "pw-2")])
        #expect(report.keptValues.map(\.description).count == 2)
    }

    @Test func withoutIdsAnArrayThatChangedLengthIsRefusedAndSaysWhy() throws {
        // Items that have no id: which live item is which cannot be told.
        let notesSink = MemorySink()
        let notes = NotesStore(
            initialState: [], recorder: try TraceRecorder(sink: notesSink, app: "Notes", redactedKeys: ["password"]))
        notes.send { $0.append(Note(password: "a")) }
        notes.send { $0.append(Note(password: "b")) }
        notes.send { $0.removeFirst() }
        let error = #expect(throws: RestoreError.self) {
            try Restorer([RestorableStore(notes)]).restore(
                from: try TraceFile(bytes: notesSink.data, name: "notes.jsonl"), atStep: 3)
        }
        #expect(error?.message.contains("cannot be told") == true)
        #expect(notes.state == [Note(password: "b")])
    }
}
