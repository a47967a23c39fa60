@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) internal import ToolSupport
import TraceReader

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension ShopSnapshot {
    /// The app's state at `step` of `trace`: each store's recorded JSON decoded back into the
    /// app's own state type. A store that has not registered by then is in its initial state.
    init(_ trace: TraceFile, atStep step: Int) throws(ReplayError) {
        func decode<State: Decodable>(_ type: State.Type, store: String, default initial: State) throws(ReplayError)
            -> State
        {
            do {
                return try trace.state(of: store, atStep: step, as: State.self) ?? initial
            } catch {
                throw ReplayError(
                    trace.path, line: Self.lineOfLatestEvent(of: store, atStep: step, in: trace),
                    "the state of \(store) is not a \(State.self) this app can read (\(Self.summary(of: error))); was the trace recorded by another version of sample-app?"
                )
            }
        }
        self.init(
            catalog: try decode(CatalogState.self, store: String(describing: CatalogStore.self), default: .idle),
            cart: try decode(CartState.self, store: String(describing: CartStore.self), default: CartState()),
            checkout: try decode(CheckoutState.self, store: String(describing: CheckoutStore.self), default: .editing),
            wishlist: try decode(WishlistState.self, store: Wishlist.storeName, default: WishlistState()))
    }

    /// The line of the event that set `store`'s state at `step`, for an error message.
    private static func lineOfLatestEvent(of store: String, atStep step: Int, in trace: TraceFile) -> Int? {
        var line: Int?
        for index in 0..<trace.eventCount {
            guard let eventStep = trace.step(ofEventAt: index), eventStep <= step else { break }
            if let event = trace.event(at: index), event.setsState, event.store == store { line = event.line }
        }
        return line
    }

    /// "at lines[0].quantity: Expected Int", from a `DecodingError`.
    private static func summary(of error: any Error) -> String {
        let context: DecodingError.Context
        switch error as? DecodingError {
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .keyNotFound(_, let found),
            .dataCorrupted(let found):
            context = found
        case nil:
            return TerminalText.safe(String(describing: error))
        @unknown default:
            return TerminalText.safe(String(describing: error))
        }
        var path = ""
        for key in context.codingPath {
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += (path.isEmpty ? "" : ".") + key.stringValue
            }
        }
        let what = TerminalText.safe(context.debugDescription)
        return path.isEmpty ? what : "at \(TerminalText.safe(path)): \(what)"
    }
}
