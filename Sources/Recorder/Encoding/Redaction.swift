/// Which keys of a state or of an action's arguments the recorder writes as `"<redacted>"`.
///
/// ```swift
/// TraceRecorder(path: path, redactedKeys: ["password", .keyContaining("token"), "authorization"])
/// ```
///
/// A rule names a key exactly (a string literal, or ``Rule/key(_:)``) or a part of a key
/// (``Rule/keyContaining(_:)``: `.keyContaining("token")` covers `token`, `accessToken` and
/// `refresh_token`). Either way, case does not matter: `"password"` covers `password`,
/// `Password` and `PASSWORD`, whatever spelling a `CodingKeys` raw value uses.
///
/// Rules apply to every key at any depth: struct properties, enum case labels, the keys of a
/// dictionary (also one keyed by a `String`-backed enum), and the names of action arguments. A
/// value that no key names, such as an unlabeled enum payload (`.submitting("hunter2")`, written
/// as `_0`), is protected by its type instead: wrap it in ``Secret``.
public struct Redaction: Sendable, ExpressibleByArrayLiteral {
    /// One rule: a key's exact name, or a part of it, compared without regard to case.
    public struct Rule: Sendable, ExpressibleByStringLiteral {
        /// The name or the part of a name, as given.
        public let text: String
        /// Whether a key only has to contain `text`.
        public let isPart: Bool

        /// A key named `name`, in any case.
        public static func key(_ name: String) -> Rule {
            Rule(text: name, isPart: false)
        }

        /// Any key that contains `fragment`, in any case (`"token"` covers `accessToken`).
        public static func keyContaining(_ fragment: String) -> Rule {
            Rule(text: fragment, isPart: true)
        }

        /// A key named exactly this, in any case: `"password"` is `.key("password")`.
        public init(stringLiteral name: String) {
            self.init(text: name, isPart: false)
        }

        private init(text: String, isPart: Bool) {
            self.text = text
            self.isPart = isPart
        }
    }

    /// The rules, in the order given.
    public var rules: [Rule]

    /// Redacts what any of `rules` covers.
    public init(_ rules: [Rule] = []) {
        self.rules = rules
    }

    /// Redacts what any of the rules covers: `["password", .keyContaining("token")]`.
    public init(arrayLiteral rules: Rule...) {
        self.rules = rules
    }

    /// Redacts the keys named in `names` (any case), for a list built at run time.
    public init(keys names: [String]) {
        rules = names.map(Rule.key)
    }

    /// Nothing is redacted (``Secret`` values still are).
    public static var none: Redaction { Redaction() }

    /// Whether the value of `key` is written as `"<redacted>"`: what an app's test can ask of
    /// its own configuration.
    public func covers(_ key: String) -> Bool {
        let matcher = RedactionMatcher(self)
        return matcher.isActive && matcher.covers(key)
    }
}
