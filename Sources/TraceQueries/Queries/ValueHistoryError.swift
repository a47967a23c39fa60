import TraceJSON
import TraceReader

/// Why a path cannot be looked up in a trace, and what to give instead.
public struct ValueHistoryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// The path is `.`, the whole app state: it must start with a store's name.
        case noStore
        /// The path's first component is not a store of the trace.
        case unknownStore
    }

    /// What went wrong.
    public var kind: Kind
    /// The path that was asked about.
    public var path: StatePath
    /// The trace's store names, for the message.
    public var storeNames: [String]

    /// Creates an error.
    public init(kind: Kind, path: StatePath, storeNames: [String]) {
        self.kind = kind
        self.path = path
        self.storeNames = storeNames
    }

    /// The problem and what to write instead, terminal-safe.
    public var description: String {
        let stores =
            storeNames.isEmpty
            ? "the trace has no store yet"
            : "its stores are: " + storeNames.map { StatePath([.key($0)]).description }.joined(separator: ", ")
        switch kind {
        case .noStore:
            return
                "the path \(path) names no store; start it with a store's name, as diff prints paths (CartStore.lines[2].quantity); \(stores)"
        case .unknownStore:
            return "the path \(path) starts with no store of the trace; \(stores)"
        }
    }
}
