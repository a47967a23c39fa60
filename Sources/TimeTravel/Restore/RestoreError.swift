import TraceJSON

/// Why a restore did not happen. A restore that throws has changed no store and written no
/// event: every state is decoded before any is set.
public struct RestoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Kind: Sendable, Equatable {
        /// The step is not one of the trace's (0 to its last step).
        case stepOutOfRange
        /// A store was asked for that the `Restorer` does not have.
        case unknownStore
        /// A recorded state is not a value of the store's type any more (the app's types changed
        /// since the recording): `store`, `path` and `type` say where.
        case cannotDecode
        /// A recorded value is `"<redacted>"`, and the policy refuses it or the live state has
        /// no value to keep there: `paths` lists them.
        case redacted
        /// The trace could not be opened or read.
        case unreadableTrace
    }

    /// What went wrong.
    public var kind: Kind
    /// The store at fault, where there is one.
    public var store: String?
    /// The path of the value at fault inside the store's state (without the store's name),
    /// for `cannotDecode`.
    public var path: StatePath?
    /// The Swift type the value had to be, for `cannotDecode`.
    public var type: String?
    /// The paths of the redacted values, each starting with its store's name, for `redacted`.
    public var paths: [StatePath]
    /// A sentence that says what is wrong and what to do.
    public var message: String

    /// An error of these parts.
    public init(
        _ kind: Kind, store: String? = nil, path: StatePath? = nil, type: String? = nil, paths: [StatePath] = [],
        message: String
    ) {
        self.kind = kind
        self.store = store
        self.path = path
        self.type = type
        self.paths = paths
        self.message = message
    }

    public var description: String { message }
}
