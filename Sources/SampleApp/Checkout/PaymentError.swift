/// Why a payment was refused.
struct PaymentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A sentence for the shopper, such as "card declined: …".
    var message: String

    var description: String { message }
}
