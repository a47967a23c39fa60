import TimeTravel
import TraceQueries

/// A recorded session of the shop run again on today's code (`TraceReplay`): a new shop whose
/// catalog answers where the trace has it (a `ScriptedCatalogService`), each shopper's command
/// sent again from its recorded action, each payment answered by the fake card, each restore
/// replayed as one. The outcome is the first step where today's shop behaves differently, or
/// that the session replays exactly.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
enum ShopReplay {
    /// Replays the trace at `path` (or given as bytes).
    /// - Parameters:
    ///   - products: what the fake catalog answers with.
    ///   - configuration: the fake card's limit, and the rest of the shop's setup. The stores
    ///     record an illegal transition whatever its policy, so that a replay never traps.
    ///   - ignoring: state paths to leave out, as `inspector compare --ignore`.
    static func run(
        _ trace: TraceComparison.Input, products: [Product] = FakeCatalogService.standardProducts,
        configuration: ShopConfiguration = ShopConfiguration(), ignoring: [String] = []
    ) throws(TraceReplayError) -> ReplayOutcome {
        var configuration = configuration
        configuration.policy = .record
        let replay = try TraceReplay(trace, ignoring: ignoring, machines: Shop.machines)
        return try replay.run { recorder in
            let catalog = ScriptedCatalogService(products: products)
            let shop = Shop(
                restoring: ShopSnapshot(), configuration: configuration, recorder: recorder, catalogService: catalog)
            return table(for: shop, catalog: catalog)
        }
    }

    /// The shop's actions as calls. A command the shop refuses sends nothing, which the
    /// comparison reports as the divergence.
    static func table(for shop: Shop, catalog: ScriptedCatalogService) -> ReplayTable {
        var table = ReplayTable()
        let catalogStore = String(describing: CatalogStore.self)
        let cartStore = String(describing: CartStore.self)
        let checkoutStore = String(describing: CheckoutStore.self)
        // The shopper's commands.
        table.on(catalogStore, "toLoading") { _ in _ = shop.performWithoutTime(.refresh) }
        table.on(cartStore, "add") { args in
            _ = shop.performWithoutTime(.add(sku: try args.string("sku"), quantity: try args.int("quantity")))
        }
        table.on(cartStore, "remove") { args in _ = shop.performWithoutTime(.remove(sku: try args.string("sku"))) }
        table.on(cartStore, "undo") { _ in _ = shop.performWithoutTime(.undo) }
        table.on(checkoutStore, "checkout") { _ in _ = shop.performWithoutTime(.checkout) }
        table.byItself(checkoutStore, "didCalculate")  // `checkout` sends it, right after its own
        table.on(checkoutStore, "pay") { _ in _ = shop.performWithoutTime(.pay) }
        table.on(Wishlist.storeName, "save") { args in _ = shop.performWithoutTime(.wish(sku: try args.string("sku"))) }
        table.on(Wishlist.storeName, "remove") { args in
            _ = shop.performWithoutTime(.unwish(sku: try args.string("sku")))
        }
        // The fakes' answers: the catalog's where the trace has them, the card's when its time comes.
        table.on(catalogStore, "didLoad") { _ in try catalog.answer() }
        table.on(catalogStore, "didFail") { args in try catalog.answer(failure: try args.string("error")) }
        table.on(checkoutStore, "didPay") { _ in shop.clock.advanceUntilIdle() }
        table.on(checkoutStore, "didFail") { _ in shop.clock.advanceUntilIdle() }
        // Time travel, as `sample-app --control` does it.
        let restorer = shop.restorer
        table.onRestore { restore in
            try restorer.restore(from: restore.trace, atStep: restore.step, stores: [restore.store])
            shop.didRestore()
        }
        return table
    }
}
