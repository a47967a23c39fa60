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
public struct Redaction: Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// One rule: a key's exact name, or a part of it, compared without regard to case.
    public struct Rule: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        enum Kind: Sendable, Hashable {
            case key
            case keyContaining
        }

        let kind: Kind
        /// The name or the part of a name, as given.
        public let text: String

        /// A key named `name`, in any case.
        public static func key(_ name: String) -> Rule {
            Rule(kind: .key, text: name)
        }

        /// Any key that contains `fragment`, in any case (`"token"` covers `accessToken`).
        public static func keyContaining(_ fragment: String) -> Rule {
            Rule(kind: .keyContaining, text: fragment)
        }

        /// A key named exactly this, in any case: `"password"` is `.key("password")`.
        public init(stringLiteral name: String) {
            self.init(kind: .key, text: name)
        }

        init(kind: Kind, text: String) {
            self.kind = kind
            self.text = text
        }

        /// Whether this rule covers `key`.
        public func covers(_ key: String) -> Bool {
            let key = key.lowercased()
            let text = text.lowercased()
            switch kind {
            case .key: return key == text
            case .keyContaining: return text.isEmpty || key.contains(text)
            }
        }

        public var description: String {
            switch kind {
            case .key: "\(text)"
            case .keyContaining: "*\(text)*"
            }
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
    public init(keys names: some Sequence<String>) {
        rules = names.map(Rule.key)
    }

    /// Nothing is redacted (``Secret`` values still are).
    public static var none: Redaction { Redaction() }

    /// Whether the value of `key` is written as `"<redacted>"`: what an app's test can ask of
    /// its own configuration.
    public func covers(_ key: String) -> Bool {
        rules.contains { $0.covers(key) }
    }

    public var description: String {
        "[" + rules.map(\.description).joined(separator: ", ") + "]"
    }
}
