import Recorder

/// Owns the catalog's state and does its side effect: fetching the products from the injected
/// service.
final class CatalogStore: Store<CatalogState>, @unchecked Sendable {
    // @unchecked: adds only an immutable, Sendable property to Store.
    private let service: any CatalogService

    init(
        service: any CatalogService,
        initialState: CatalogState = .idle,
        recorder: TraceRecorder? = nil,
        policy: IllegalTransitionPolicy = .record
    ) {
        self.service = service
        super.init(initialState: initialState, recorder: recorder, policy: policy)
    }

    /// Loads the products: the first load, a refresh, or a retry after a failure.
    ///
    /// A refresh while a load is pending is not prevented: that is the double-refresh bug this
    /// sample app keeps on purpose, for Rewind to catch (`toLoading` from `loading`). The caller's
    /// file and line go through to `send`, so the trace's `source` is the code that asked for
    /// the refresh, not this method.
    func refresh(file: StaticString = #fileID, line: UInt = #line) {
        toLoading(file: file, line: line)
        service.fetchProducts { [weak self] result in
            self?.receive(result)
        }
    }

    /// Recorded as the action `toLoading`, with the caller's line as its `source`.
    func toLoading(file: StaticString = #fileID, line: UInt = #line) {
        send(file: file, line: line) { $0.toLoading() }
    }

    /// Handles the service's answer. An answer that arrives when no load is pending (the second
    /// answer after a double refresh) is stale, and dropped.
    private func receive(_ result: Result<[Product], CatalogError>) {
        guard state.currentCase == .loading else { return }
        switch result {
        case .success(let products): didLoad(products)
        case .failure(let error): didFail(error)
        }
    }

    private func didLoad(_ products: [Product]) {
        send(args: ["products": products.count]) { $0.toLoaded(products) }
    }

    private func didFail(_ error: CatalogError) {
        send(args: ["error": error.message]) { $0.toFailed(error.message) }
    }
}
