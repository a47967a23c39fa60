import Recorder

/// The app: its three stores and the wishlist screen's model, their fake services on a simulated
/// clock, the subscriptions that let one store follow another, and the undo history. This is the "context" of the one-way
/// data flow talk: commands go in, stores change, and the screen is drawn from their states.
///
/// Data flows one way: catalog → cart → checkout. No store follows one that follows it, so
/// reactions cannot loop (a problem the state-container talk warns about).
///
/// A class because it owns things with identity (the stores, the clock, the subscriptions that
/// end with it). It is used from one thread, the app's, and is not `Sendable`.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class Shop {
    /// The app's name in trace headers; `replay` reads only traces that carry it.
    static let appName = "SampleApp"

    /// The state machines, by store name, pinned in the trace header too (each machine store
    /// also writes its own in its register event), for readers older than register machines.
    static let machines: MachineList = [
        "CatalogStore": CatalogState.self,
        "CheckoutStore": CheckoutState.self,
    ]

    let catalog: CatalogStore
    let cart: CartStore
    let checkout: CheckoutStore
    /// An `@Observable` model, not a `Store`: it records itself through a `StoreRecording`.
    let wishlist: Wishlist
    /// The fake network's time.
    let clock: SimulatedClock
    private var history = UndoHistory<CartState>()
    private var subscriptions: [Subscription] = []

    /// A shop in its initial state, recording to `recorder` when given.
    convenience init(configuration: ShopConfiguration = ShopConfiguration(), recorder: TraceRecorder? = nil) {
        self.init(restoring: ShopSnapshot(), configuration: configuration, recorder: recorder)
    }

    /// A shop whose stores start from `snapshot`: time travel to a recorded step is setting the
    /// three values.
    /// - Parameter catalogService: replaces the fake `configuration` sets up (a replay's).
    init(
        restoring snapshot: ShopSnapshot, configuration: ShopConfiguration = ShopConfiguration(),
        recorder: TraceRecorder? = nil, catalogService: (any CatalogService)? = nil
    ) {
        let clock = SimulatedClock()
        self.clock = clock
        catalog = CatalogStore(
            service: catalogService ?? FakeCatalogService(clock: clock, configuration: configuration),
            initialState: snapshot.catalog, recorder: recorder, policy: configuration.policy)
        cart = CartStore(initialState: snapshot.cart, recorder: recorder, policy: configuration.policy)
        checkout = CheckoutStore(
            payments: FakePaymentService(
                limit: configuration.cardLimit, clock: clock, ticks: configuration.paymentTicks),
            initialState: snapshot.checkout, recorder: recorder, policy: configuration.policy)
        wishlist = Wishlist(initialState: snapshot.wishlist, recorder: recorder)
        connect()
    }

    /// Starts a trace at `path` (replacing a file there) for a shop.
    static func recorder(path: String) throws -> TraceRecorder {
        try TraceRecorder(path: path, replacing: true, app: appName, machines: machines)
    }

    /// Starts a trace on `sink` for a shop.
    static func recorder(sink: any TraceSink) throws -> TraceRecorder {
        try TraceRecorder(sink: sink, app: appName, machines: machines)
    }

    /// The state of every store.
    var snapshot: ShopSnapshot {
        ShopSnapshot(catalog: catalog.state, cart: cart.state, checkout: checkout.state, wishlist: wishlist.state)
    }

    /// What the app does when it opens: load the catalog.
    func launch() {
        catalog.refresh()
    }

    /// Runs `command`, then lets its time pass (one tick; `wait` says how many). Returns a
    /// sentence for the shopper when the command could not be done.
    @discardableResult
    func run(_ command: ShopCommand) -> String? {
        let refusal = perform(command)
        switch command {
        case .wait(ticks: nil): clock.advanceUntilIdle()
        case .wait(ticks: let ticks?): clock.advance(by: ticks)
        case .help, .quit: break
        default: clock.advance(by: 1)
        }
        return refusal
    }

    private func perform(_ command: ShopCommand) -> String? {
        switch command {
        case .refresh:
            catalog.refresh()  // Not refused while loading, on purpose: see CatalogStore.refresh().
        case .add(let sku, let quantity):
            if let refusal = cartIsLocked() { return refusal }
            let catalogState = catalog.state
            editCart { $0.add(sku, quantity: quantity, catalog: catalogState) }
        case .remove(let sku):
            if let refusal = cartIsLocked() { return refusal }
            guard cart.state.quantity(of: sku) > 0 else { return "\(sku) is not in the cart" }
            editCart { $0.remove(sku) }
        case .undo:
            if let refusal = cartIsLocked() { return refusal }
            guard let previous = history.popLast() else { return "nothing to undo" }
            cart.undo(to: previous)
        case .checkout:
            return startCheckout()
        case .pay:
            return startPayment()
        case .wish(let sku):
            guard let products = catalog.state.products else {
                return "the catalog is not loaded yet: wait, then save \(sku) for later"
            }
            guard products.contains(where: { $0.sku == sku }) else { return "\(sku) is not in the catalog" }
            wishlist.save(sku)
        case .unwish(let sku):
            guard wishlist.skus.contains(sku) else { return "\(sku) is not on the wishlist" }
            wishlist.remove(sku)
        case .wait, .help, .quit:
            break
        }
        return nil
    }

    /// Runs a change of the cart and remembers the whole cart from before it, for undo.
    private func editCart(_ change: (CartStore) -> Void) {
        let before = cart.state
        change(cart)
        if cart.state != before { history.record(before) }
    }

    private func cartIsLocked() -> String? {
        checkout.state.currentCase == .paying ? "a payment is under way: wait for it before changing the cart" : nil
    }

    private func startCheckout() -> String? {
        guard let products = catalog.state.products else {
            return "the catalog is not loaded, so there are no prices yet: wait, or type 'refresh'"
        }
        guard !cart.state.isEmpty else { return "the cart is empty: add SKU [QTY] first" }
        switch checkout.state {
        case .editing:
            checkout.checkout(cart.state, catalog: products)
            return nil
        case .calculating, .ready, .failed:
            return "the total is already calculated: type 'pay'"
        case .paying:
            return "a payment is under way: wait for it"
        case .paid:
            return "this order is paid: change the cart to start a new one"
        }
    }

    private func startPayment() -> String? {
        switch checkout.state.currentCase {
        case .ready, .failed:
            checkout.pay()
            return nil
        case .editing, .calculating:
            return "there is no total yet: type 'checkout' first"
        case .paying:
            return "a payment is under way: wait for it"
        case .paid:
            return "this order is already paid"
        }
    }

    /// The cart follows the catalog, and the checkout follows the cart. Each reaction is an
    /// action sent from a subscriber, so the trace records what caused it.
    private func connect() {
        let cart = cart
        let checkout = checkout
        subscriptions.append(
            catalog.subscribeToChanges { state in
                if let products = state.products { cart.catalogDidLoad(products) }
            })
        subscriptions.append(
            cart.subscribeToChanges { _ in
                checkout.cartDidChange()
            })
    }

    /// After a restore (`sample-app --control`): the undo history belonged to the present the
    /// shop left, so it goes. (Here, at the end, so that the recorded source lines above stay.)
    func didRestore() {
        history = UndoHistory()
    }

    /// Runs `command` without letting time pass: a replay sends each answer of a fake where its
    /// trace has it. Returns a sentence for the shopper when the command could not be done.
    func performWithoutTime(_ command: ShopCommand) -> String? {
        perform(command)
    }
}
