import Recorder

/// Owns the checkout: calculates the order's totals and pays them through the injected payment
/// service. It follows the cart: any change of the cart after a total was shown takes it back to
/// `editing` (`cartDidChange()`, called from a subscription, so the trace shows the `cause`).
final class CheckoutStore: Store<CheckoutState>, @unchecked Sendable {
    // @unchecked: adds only an immutable, Sendable property to Store.
    private let payments: any PaymentService

    init(
        payments: any PaymentService,
        initialState: CheckoutState = .editing,
        recorder: TraceRecorder? = nil,
        policy: IllegalTransitionPolicy = .record
    ) {
        self.payments = payments
        super.init(initialState: initialState, recorder: recorder, policy: policy)
    }

    /// Calculates the totals of `cart` at the prices of `catalog`: `calculating`, then `ready`.
    func checkout(_ cart: CartState, catalog: [Product]) {
        send { $0.toCalculating() }
        didCalculate(Totals(lines: cart.lines, catalog: catalog))
    }

    /// Charges the total. Does nothing before a total was calculated.
    func pay() {
        guard let total = state.totals?.total else { return }
        send { $0.toPaying() }
        payments.charge(total) { [weak self] result in
            self?.receive(result)
        }
    }

    /// Drops a total that no longer matches the cart. Does nothing while there is none, or while
    /// a payment is under way (the shop does not let the cart change then).
    func cartDidChange() {
        switch state.currentCase {
        case .ready, .paid, .failed: send { $0.toEditing() }
        case .editing, .calculating, .paying: break
        }
    }

    private func didCalculate(_ totals: Totals) {
        send(args: ["total": totals.total.cents]) { $0.toReady(totals) }
    }

    /// Handles the payment's outcome. An answer that arrives when no payment is under way is
    /// stale, and dropped.
    private func receive(_ result: Result<Void, PaymentError>) {
        guard state.currentCase == .paying else { return }
        switch result {
        case .success: didPay()
        case .failure(let error): didFail(error)
        }
    }

    private func didPay() {
        send { $0.toPaid() }
    }

    private func didFail(_ error: PaymentError) {
        send(args: ["error": error.message]) { $0.toFailed(error.message) }
    }
}
