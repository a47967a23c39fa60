@_spi(RewindInternals) internal import RewindSupport

/// An in-process catalog with deterministic delays and failures.
///
/// Each request draws its latency (1–3 ticks of the simulated clock) and whether it fails from
/// a generator seeded with `seed`, so the same seed and the same commands give the same run.
final class FakeCatalogService: CatalogService {
    /// The longest a request takes, in ticks.
    static let maximumLatency = 3

    /// What the shop sells, sorted by SKU.
    static let standardProducts = [
        Product(sku: "HAT", name: "Baseball cap", price: Money(cents: 15_00)),
        Product(sku: "MUG", name: "Swift mug", price: Money(cents: 12_50)),
        Product(sku: "SHIRT", name: "T-shirt", price: Money(cents: 20_00)),
        Product(sku: "STICKERS", name: "Sticker pack", price: Money(cents: 3_99)),
    ]

    private let products: [Product]
    private let clock: SimulatedClock
    private let failurePercent: Int
    // Guarded by a `Lock`: requests may come from any thread, and each one draws the next numbers.
    private let generator: Lock<SeededGenerator>

    /// - Parameters:
    ///   - products: what a successful request returns.
    ///   - clock: the simulated time on which answers arrive.
    ///   - seed: decides each request's latency and failure.
    ///   - failurePercent: the chance, 0–100, that a request fails.
    init(products: [Product] = standardProducts, clock: SimulatedClock, seed: UInt64, failurePercent: Int) {
        self.products = products
        self.clock = clock
        self.failurePercent = min(100, max(0, failurePercent))
        self.generator = Lock(SeededGenerator(seed: seed))
    }

    /// The catalog a shop set up by `configuration` fetches from.
    convenience init(clock: SimulatedClock, configuration: ShopConfiguration) {
        self.init(clock: clock, seed: configuration.seed, failurePercent: configuration.failurePercent)
    }

    func fetchProducts(completion: @escaping @Sendable (Result<[Product], CatalogError>) -> Void) {
        let (latency, fails) = generator.withLock { generator in
            (generator.next(in: 1...Self.maximumLatency), generator.next(in: 0...99) < failurePercent)
        }
        let products = products
        clock.schedule(after: latency) {
            completion(fails ? .failure(CatalogError(message: "the network is unavailable")) : .success(products))
        }
    }
}
