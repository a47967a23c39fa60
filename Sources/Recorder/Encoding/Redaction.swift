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
/// Sensitive keys are redacted by default: on top of the rules given, any key that contains
/// `password`, `passwd`, `secret`, `token`, `authorization`, `cookie`, `apiKey`, `api_key`,
/// `privateKey` or `private_key` (``sensitiveKeys``, any case) is written as `"<redacted>"`, so
/// that an app that names no keys does not write every password and token it holds. To record
/// them (a debug build that restores them, a test), say so:
///
/// ```swift
/// TraceRecorder(path: path, redactedKeys: .none)                          // nothing redacted
/// TraceRecorder(path: path, redactedKeys: Redaction(["pin"], sensitiveKeys: false))  // only pin
/// ```
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
    /// Whether the keys of ``sensitiveKeys`` are redacted too (true unless the app says not).
    public var redactsSensitiveKeys: Bool

    /// The rules redacted by default, on top of an app's own: any key that contains one of
    /// these words, in any case.
    public static let sensitiveKeys: [Rule] = [
        "password", "passwd", "secret", "token", "authorization", "cookie", "apikey", "api_key", "privatekey",
        "private_key",
    ].map(Rule.keyContaining)

    /// Redacts what any of `rules` covers, and the keys of ``sensitiveKeys``.
    public init(_ rules: [Rule] = []) {
        self.init(rules, sensitiveKeys: true)
    }

    /// Redacts what any of `rules` covers, and with `sensitiveKeys` the keys of
    /// ``sensitiveKeys``: `Redaction(["pin"], sensitiveKeys: false)` redacts only `pin`.
    public init(_ rules: [Rule], sensitiveKeys: Bool) {
        self.rules = rules
        redactsSensitiveKeys = sensitiveKeys
    }

    /// Redacts what any of the rules covers: `["password", .keyContaining("token")]`, and the
    /// keys of ``sensitiveKeys``.
    public init(arrayLiteral rules: Rule...) {
        self.rules = rules
        redactsSensitiveKeys = true
    }

    /// Redacts the keys named in `names` (any case), for a list built at run time, and the keys
    /// of ``sensitiveKeys``.
    public init(keys names: [String]) {
        rules = names.map(Rule.key)
        redactsSensitiveKeys = true
    }

    /// Nothing is redacted, not even the keys of ``sensitiveKeys`` (``Secret`` values still are).
    public static var none: Redaction { Redaction([], sensitiveKeys: false) }

    /// The rules in force: the app's, then the default ones when they are on.
    var rulesInForce: [Rule] {
        redactsSensitiveKeys ? rules + Self.sensitiveKeys : rules
    }

    /// Whether the value of `key` is written as `"<redacted>"`: what an app's test can ask of
    /// its own configuration.
    public func covers(_ key: String) -> Bool {
        let matcher = RedactionMatcher(self)
        return matcher.isActive && matcher.covers(key)
    }
}
