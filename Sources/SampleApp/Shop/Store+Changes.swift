import Recorder
@_spi(RewindInternals) internal import RewindSupport

extension Store {
    /// Subscribes to the states that come after the current one.
    ///
    /// `subscribe(_:)` first calls its handler with the current state; a reaction such as "the
    /// cart changed, so drop the total" must not run for that one, or a shop restored to a
    /// recorded step would change its own restored states.
    func subscribeToChanges(_ handler: @escaping @Sendable (State) -> Void) -> Subscription {
        let latch = Latch()
        let subscription = subscribe { state in
            if latch.isOpen { handler(state) }
        }
        latch.open()
        return subscription
    }
}

/// A flag that starts closed and opens once.
private final class Latch: Sendable {
    // Guarded by a `Lock`: the handler may run on any thread that sends to the store.
    private let state = Lock(false)

    var isOpen: Bool { state.withLock { $0 } }

    func open() {
        state.withLock { $0 = true }
    }
}
