import TraceJSON

/// One thing wrong with a trace: where it is (line, and the event's `seq` and store where it has
/// them), its kind and severity, and a message that says what was expected.
public struct Problem: Sendable, Hashable, CustomStringConvertible {
    /// How serious a problem is.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// The file cannot be read as a trace at all; nothing else was checked.
        case fatal
        /// The trace breaks a rule of the format or a state machine.
        case error
        /// Worth knowing (a torn last line) but not an error unless validation is strict.
        case warning

        /// Orders by seriousness: a warning is less than an error, an error less than fatal.
        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs.rank < rhs.rank
        }

        private var rank: Int {
            switch self {
            case .warning: 0
            case .error: 1
            case .fatal: 2
            }
        }
    }

    /// What kind of problem this is.
    public var kind: ProblemKind
    /// How serious it is; the kind's severity.
    public var severity: Severity
    /// The 1-based line of the file (the header is line 1).
    public var line: Int
    /// The `seq` of the line's event, when it has one that could be read.
    public var seq: Int?
    /// The store of the line's event, when it has one that could be read.
    public var store: String?
    /// What is wrong and what was expected, in one sentence without the position.
    public var message: String
    /// The `source` of the transition at fault (`Module/File.swift:LINE` or `File.swift:LINE`),
    /// when the problem is about an action that has one: the Swift line that sent it.
    public var source: String?
    /// The `stack` of the transition at fault, innermost frame first; empty when it has none.
    public var stack: [String]

    /// Creates a problem; its severity is `kind.severity`.
    public init(
        kind: ProblemKind, line: Int, seq: Int? = nil, store: String? = nil, message: String,
        source: String? = nil, stack: [String] = []
    ) {
        self.kind = kind
        self.severity = kind.severity
        self.line = line
        self.seq = seq
        self.store = store
        self.message = message
        self.source = source
        self.stack = stack
    }

    /// `17: error: illegal transition …`: the line, severity and message.
    public var description: String {
        "\(line): \(severity.rawValue): \(message)"
    }
}
