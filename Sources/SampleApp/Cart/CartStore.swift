import Recorder

/// Owns the cart. It follows the catalog: when a catalog loads, the shop calls
/// `catalogDidLoad(_:)` from a subscription, so the trace records the catalog's event as the
/// `cause` of the cart's.
final class CartStore: Store<CartState>, @unchecked Sendable {
    // @unchecked: adds nothing to Store.

    init(
        initialState: CartState = CartState(), recorder: TraceRecorder? = nil, policy: IllegalTransitionPolicy = .record
    ) {
        super.init(initialState: initialState, recorder: recorder, policy: policy)
    }

    /// Adds `quantity` of `sku`, or reports it when `catalog` does not list it.
    func add(_ sku: String, quantity: Int, catalog: CatalogState) {
        send(args: ["sku": sku, "quantity": quantity]) { $0.add(sku, quantity: quantity, catalog: catalog) }
    }

    /// Removes the line of `sku`.
    func remove(_ sku: String) {
        send(args: ["sku": sku]) { $0.remove(sku) }
    }

    /// Puts back a whole previous cart, as the WWDC talk's undo does: no step-by-step reversal.
    func undo(to previous: CartState) {
        send { $0 = previous }
    }

    /// Checks the lines against a newly loaded catalog: drops and reports the SKUs it does not
    /// list. Recorded on every load, even when every line is known.
    func catalogDidLoad(_ products: [Product]) {
        send(args: ["products": products.count]) { $0.reconcile(with: products) }
    }
}
