@_spi(RewindInternals) internal import RewindSupport

/// A catalog whose requests wait until someone answers them: the fake a replay injects, so that
/// each network answer comes where the recorded trace has it (`didLoad`, `didFail`), whatever
/// seed or latency the recording ran with.
final class ScriptedCatalogService: CatalogService {
    /// What a successful answer returns.
    let products: [Product]
    // Guarded by a `Lock`: the completions of the requests not answered yet, oldest first.
    private let pending = Lock<[@Sendable (Result<[Product], CatalogError>) -> Void]>([])

    init(products: [Product] = FakeCatalogService.standardProducts) {
        self.products = products
    }

    func fetchProducts(completion: @escaping @Sendable (Result<[Product], CatalogError>) -> Void) {
        pending.withLock { $0.append(completion) }
    }

    /// Answers the oldest pending request: with `products`, or with a failure saying `failure`.
    /// - Throws: `NothingPending` when no request is pending (the replay did not ask for the
    ///   catalog where the recording did).
    func answer(failure: String? = nil) throws(NothingPending) {
        let completion = pending.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        guard let completion else { throw NothingPending() }
        completion(failure.map { .failure(CatalogError(message: $0)) } ?? .success(products))
    }

    /// An answer when no request is pending.
    struct NothingPending: Error, CustomStringConvertible {
        var description: String {
            "no catalog request is pending: nothing asked for the catalog before its answer (a refresh is missing)"
        }
    }
}
