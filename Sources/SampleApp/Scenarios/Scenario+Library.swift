@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Scenario {
    /// Every scenario, in the order `sample-app scenarios` lists them. Most run on the default
    /// network (seed 2: the first load succeeds after 2 ticks, as in the interactive app); the
    /// others name the seed that makes the network behave as their summary says. The tests check
    /// that it does.
    static let all: [Scenario] = [happyPath, flakyNetwork, undo, doubleRefresh, crash, quitWhilePaying]

    /// Browse, save for later, add, check out, pay. The wishlist is an `@Observable` model that
    /// records itself, so the trace shows it beside the stores.
    static let happyPath = Scenario(
        name: "happy-path",
        summary: "browse the catalog, save two products on the wishlist and drop one, add two, check out and pay",
        configuration: ShopConfiguration(),
        commands: [
            .wait(ticks: nil), .wish(sku: "HAT"), .add(sku: "SHIRT", quantity: 2), .wish(sku: "STICKERS"),
            .add(sku: "MUG", quantity: 1), .unwish(sku: "HAT"), .checkout, .pay, .wait(ticks: nil),
        ])

    /// The first load fails; the retry succeeds, and the cart drops a SKU the catalog lacks.
    static let flakyNetwork = Scenario(
        name: "flaky-network",
        summary: "the first catalog load fails, the retry succeeds; the cart then reports SKU '1234' not found",
        configuration: ShopConfiguration(seed: 4),  // load 1 fails after 2 ticks; load 2 succeeds
        commands: [
            .add(sku: "SHIRT", quantity: 1), .add(sku: "1234", quantity: 1), .wait(ticks: nil), .refresh,
            .wait(ticks: nil),
            .checkout, .pay, .wait(ticks: nil),
        ])

    /// Undo puts back whole carts, and the checkout follows.
    static let undo = Scenario(
        name: "undo",
        summary: "undo an added product and a not-found SKU; a declined payment, undo, pay again",
        configuration: ShopConfiguration(),
        commands: [
            .wait(ticks: nil), .add(sku: "SHIRT", quantity: 2), .add(sku: "HAT", quantity: 1), .undo,
            .add(sku: "1234", quantity: 1), .undo, .add(sku: "SHIRT", quantity: 4), .checkout, .pay, .wait(ticks: nil),
            .undo, .checkout, .pay, .wait(ticks: nil),
        ])

    /// A refresh while the catalog is loading: `toLoading` from `loading`.
    static let doubleRefresh = Scenario(
        name: "double-refresh",
        summary: "refresh while the catalog is loading: toLoading runs from loading (inspector validate flags it)",
        configuration: ShopConfiguration(),
        commands: [.refresh, .wait(ticks: nil), .add(sku: "SHIRT", quantity: 1)],
        breaksAMachine: true)

    /// The double refresh again, in a shop whose stores trap on an illegal transition.
    static let crash = Scenario(
        name: "crash",
        summary:
            "stores that trap (a debug build): fill the cart, refresh twice, and the app dies; the trace keeps every event",
        configuration: ShopConfiguration(seed: 18, policy: .trap),  // the refresh takes 2 ticks
        commands: [
            .wait(ticks: nil), .add(sku: "SHIRT", quantity: 2), .add(sku: "MUG", quantity: 1), .refresh, .refresh,
        ],
        breaksAMachine: true)

    /// Pay and quit before the payment service answers: the checkout ends the run `paying`, which
    /// `CheckoutState.mustNotEndIn` forbids.
    static let quitWhilePaying = Scenario(
        name: "quit-while-paying",
        summary:
            "check out, pay and quit before the payment answers: the checkout ends paying (inspector validate warns)",
        configuration: ShopConfiguration(paymentTicks: 5),  // the payment answers after the quit
        commands: [.wait(ticks: nil), .add(sku: "MUG", quantity: 1), .checkout, .pay, .quit],
        breaksARule: true)
}
