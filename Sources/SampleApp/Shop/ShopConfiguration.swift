import Recorder

/// How a shop is set up: the fake services' behaviour and the stores' policy. Everything that
/// makes one run differ from another is here, so a scenario is a configuration and commands.
struct ShopConfiguration: Sendable {
    /// Decides each catalog request's latency and failure.
    var seed: UInt64 = 2
    /// The chance, 0–100, that a catalog request fails.
    var failurePercent = 25
    /// The most the fake card accepts.
    var cardLimit = Money(cents: 100_00)
    /// How many ticks the fake card takes to answer a charge.
    var paymentTicks = 1
    /// What the stores do on an illegal transition.
    var policy: IllegalTransitionPolicy = .record
}
