/// Charges the shopper: the checkout's one dependency, behind a protocol so that it can be
/// injected. The app uses `FakePaymentService`.
protocol PaymentService: Sendable {
    /// Starts charging `amount`; `completion` is called once, later, with the outcome.
    func charge(_ amount: Money, completion: @escaping @Sendable (Result<Void, PaymentError>) -> Void)
}
