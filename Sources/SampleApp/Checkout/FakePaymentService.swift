/// An in-process card processor: it answers one tick after a charge, and declines any amount
/// over the card's limit. Deterministic by construction.
struct FakePaymentService: PaymentService {
    /// The most the card accepts.
    var limit: Money
    /// The simulated time on which answers arrive.
    var clock: SimulatedClock

    func charge(_ amount: Money, completion: @escaping @Sendable (Result<Void, PaymentError>) -> Void) {
        let limit = limit
        clock.schedule(after: 1) {
            if amount > limit {
                completion(
                    .failure(PaymentError(message: "card declined: \(amount) is over the card's \(limit) limit")))
            } else {
                completion(.success(()))
            }
        }
    }
}
