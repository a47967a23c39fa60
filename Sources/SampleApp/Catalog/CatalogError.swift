/// Why the catalog could not be fetched.
struct CatalogError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A sentence for the shopper, such as "the network is unavailable".
    var message: String

    var description: String { message }
}
