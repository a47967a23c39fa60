import Synchronization

/// A live subscription to a store. Keep it as long as you want new states; the subscription ends
/// when the token is released or `cancel()` is called, whichever comes first.
public final class Subscription: Sendable {
    // Guarded by a `Mutex`: `cancel()` may race with `deinit` of the store or another `cancel()`.
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Mutex(onCancel)
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
