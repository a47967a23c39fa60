@_spi(RewindInternals) internal import RewindSupport

/// A live subscription to a store. Keep it as long as you want new states; the subscription ends
/// when the token is released or `cancel()` is called, whichever comes first.
public final class Subscription: Sendable {
    // Guarded by a `Lock` (a pthread mutex): `cancel()` may race with `deinit` of the store or another `cancel()`.
    private let onCancel: Lock<(@Sendable () -> Void)?>

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Lock(onCancel)
    }

    /// Ends the subscription now. Calling it again does nothing.
    public func cancel() {
        let action = onCancel.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit {
        cancel()
    }
}
