// The first example of Sources/Recorder/Documentation.docc/RecordingOtherStores.md, compiled and
// run by `RecordingOtherStoresTests`, which also checks that the article shows this very code.
import Observation
import Recorder

// Example: an @Observable model
@Observable
final class Wishlist {
    private(set) var items: [String] = []
    private(set) var isShared = false
    @ObservationIgnored private let recording: StoreRecording<Snapshot>

    /// What the trace records: the model's properties, as one value.
    struct Snapshot: Equatable, Encodable, Sendable {
        var items: [String] = []
        var isShared = false
    }

    init(recorder: TraceRecorder?) {
        recording = StoreRecording(name: "Wishlist", initialState: Snapshot(), recorder: recorder)
    }

    func add(_ sku: String) {
        if !items.contains(sku) { items.append(sku) }
        recording.record(state: snapshot, args: ["sku": sku])  // recorded as "add"
    }

    func share() {
        isShared = true
        recording.record(state: snapshot)
    }

    private var snapshot: Snapshot { Snapshot(items: items, isShared: isShared) }
}
// End of example
