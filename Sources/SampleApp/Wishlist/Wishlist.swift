import Observation
import Recorder

/// The wishlist screen's model: the products a shopper saves for later.
///
/// Written as a SwiftUI app writes a model: an `@Observable` class whose methods are its actions,
/// not a Rewind `Store`. It records itself through a `StoreRecording`, so the trace shows it
/// beside the shop's stores, with the same guarantees: each action a line written before the
/// method returns, `changed` from the state recorded before.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable
final class Wishlist {
    /// The saved SKUs, in the order they were saved.
    private(set) var skus: [String]
    @ObservationIgnored let recording: StoreRecording<WishlistState>

    /// The store's name in the trace, which `replay` looks for.
    static let storeName = "Wishlist"

    init(initialState: WishlistState = WishlistState(), recorder: TraceRecorder? = nil) {
        skus = initialState.skus
        recording = StoreRecording(name: Self.storeName, initialState: initialState, recorder: recorder)
    }

    /// The model's properties as one value: what is recorded.
    var state: WishlistState { WishlistState(skus: skus) }

    /// Saves `sku` for later. Saving it again changes nothing, and is recorded so.
    func save(_ sku: String) {
        if !skus.contains(sku) { skus.append(sku) }
        recording.record(state: state, args: ["sku": sku])
    }

    /// Takes `sku` off the list.
    func remove(_ sku: String) {
        skus.removeAll { $0 == sku }
        recording.record(state: state, args: ["sku": sku])
    }

    /// Takes a restored state (time travel, see `Shop+TimeTravel.swift`): the recording has it
    /// already; the model's property tells its observers.
    func takeRestored(_ restored: WishlistState) {
        skus = restored.skus
    }
}
