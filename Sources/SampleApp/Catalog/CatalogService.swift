/// Where the catalog comes from: the one dependency of `CatalogStore`, behind a protocol so that
/// it can be injected. The app uses `FakeCatalogService`; a real app would use an HTTP client.
///
/// The service answers through a completion handler, called once, later: the store stays in
/// `loading` meanwhile, which is the window in which a second refresh can arrive.
protocol CatalogService: Sendable {
    /// Starts fetching the products; `completion` receives them, or why they could not be had.
    func fetchProducts(completion: @escaping @Sendable (Result<[Product], CatalogError>) -> Void)
}
