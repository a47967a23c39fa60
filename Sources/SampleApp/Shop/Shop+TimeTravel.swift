import TimeTravel

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Shop {
    /// The stores time travel can set (`sample-app --control`): the three stores, and the
    /// wishlist's model through its recording.
    var restorer: Restorer {
        let wishlist = ModelReference(wishlist)
        return Restorer([
            RestorableStore(catalog), RestorableStore(cart), RestorableStore(checkout),
            RestorableStore(wishlist.model.recording) { state in wishlist.model.takeRestored(state) },
        ])
    }
}

/// The wishlist, handed to a restore. Restores run where the shop runs everything else (on its
/// queue in `sample-app --control`, see `ShopSession`), the one thread that uses the model,
/// which is why this reference may cross to it.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
private struct ModelReference: @unchecked Sendable {
    let model: Wishlist

    init(_ model: Wishlist) {
        self.model = model
    }
}
