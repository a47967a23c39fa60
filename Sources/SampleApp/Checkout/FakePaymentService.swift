/// An in-process card processor: it answers `ticks` ticks after a charge (one by default), and
/// declines any amount over the card's limit. Deterministic by construction.
struct FakePaymentService: PaymentService {
    /// The most the card accepts.
    var limit: Money
    /// The simulated time on which answers arrive.
    var clock: SimulatedClock
    /// How many ticks an answer takes.
    var ticks = 1

    func charge(_ amount: Money, completion: @escaping @Sendable (Result<Void, PaymentError>) -> Void) {
        let limit = limit
        clock.schedule(after: ticks) {
            if amount > limit {
                completion(
                    .failure(PaymentError(message: "card declined: \(amount) is over the card's \(limit) limit")))
            } else {
                completion(.success(()))
            }
        }
    }
}
