import TraceJSON

/// A rule over time (shared/TRACE_FORMAT.md, "Rules over time"), from a trace header's `rules` or
/// a `--spec` file's: a case a store must leave soon after entering it (`within`, else
/// `overdue`), or cases a store must not be in when the trace ends (`notAtEnd`, else
/// `unresolved`).
///
/// ```json
/// {"store":"CatalogStore","case":"loading","within":{"events":3,"seconds":10}}
/// {"store":"CheckoutStore","notAtEnd":["calculating","paying"]}
/// ```
public struct TraceRule: Sendable, Hashable, CustomStringConvertible {
    /// What a rule asks of its store.
    public enum Condition: Sendable, Hashable {
        /// Once the store enters `caseName` it must leave it before its `events`-th transition
        /// after entering, and before `seconds` have passed (at least one of the two is set).
        case within(caseName: String, events: Int?, seconds: Double?)
        /// The store must not end the trace in one of these cases.
        case notAtEnd([String])
    }

    /// The store the rule is about.
    public var store: String
    /// What it asks.
    public var condition: Condition

    /// Creates a rule.
    public init(store: String, condition: Condition) {
        self.store = store
        self.condition = condition
    }

    /// The rule as JSON text, for messages.
    public var description: String {
        var object = JSONObject()
        object.append(key: "store", value: .string(store))
        switch condition {
        case .within(let caseName, let events, let seconds):
            object.append(key: "case", value: .string(caseName))
            var within = JSONObject()
            if let events { within.append(key: "events", value: .number(String(events))) }
            if let seconds { within.append(key: "seconds", value: .number(Self.text(of: seconds))) }
            object.append(key: "within", value: .object(within))
        case .notAtEnd(let cases):
            object.append(key: "notAtEnd", value: .array(cases.map(JSONValue.string)))
        }
        return JSONPrinter.compact(.object(object), terminalSafe: true)
    }

    /// A number of seconds as JSON text: `5` rather than `5.0`.
    static func text(of seconds: Double) -> String {
        if seconds.isFinite && seconds == seconds.rounded() && abs(seconds) < 1e15 { return String(Int(seconds)) }
        return seconds.isFinite ? String(seconds) : "1e400"
    }

    /// Reads a `rules` value: an array of rules, each `{"store": S, "case": C, "within": {"events":
    /// K, "seconds": T}}` or `{"store": S, "notAtEnd": [C, ...]}`. Keys the format does not define
    /// are ignored.
    ///
    /// Decision: a `within` rule needs `case` (a string), the case it is about; the format page
    /// shows it in its example and its text speaks of entering `case`. `events` is any JSON
    /// integer (no fraction, no exponent) of at least 1; one too large for `Int` never comes.
    ///
    /// - Throws: `TraceRuleError` naming the rule (its position and text) and what to change.
    package static func parseList(_ value: JSONValue) throws(TraceRuleError) -> [TraceRule] {
        guard case .array(let values) = value else {
            throw TraceRuleError(
                "\"rules\" is \(TraceHeader.describe(value)), expected an array of rules such as {\"store\":\"S\",\"case\":\"loading\",\"within\":{\"events\":3}}"
            )
        }
        var rules: [TraceRule] = []
        rules.reserveCapacity(values.count)
        for (position, ruleValue) in values.enumerated() {
            do {
                rules.append(try parse(ruleValue))
            } catch {
                let text = JSONPrinter.compact(ruleValue, terminalSafe: true)
                let shown = text.count > 120 ? String(text.prefix(120)) + "…" : text
                throw TraceRuleError("\"rules\"[\(position)] \(shown): \(error.message)")
            }
        }
        return rules
    }

    /// Reads one rule.
    private static func parse(_ value: JSONValue) throws(TraceRuleError) -> TraceRule {
        let shapes =
            "a rule is {\"store\": S, \"case\": C, \"within\": {\"events\": K, \"seconds\": T}} or {\"store\": S, \"notAtEnd\": [C, ...]}"
        guard case .object(let object) = value else {
            throw TraceRuleError("it is \(TraceHeader.describe(value)); \(shapes)")
        }
        guard let storeValue = object["store"] else { throw TraceRuleError("it has no \"store\"; \(shapes)") }
        guard let store = storeValue.stringValue else {
            throw TraceRuleError("\"store\" is \(TraceHeader.describe(storeValue)), expected a store name (a string)")
        }
        switch (object["within"], object["notAtEnd"]) {
        case (nil, nil):
            throw TraceRuleError("it has neither \"within\" nor \"notAtEnd\"; \(shapes)")
        case (.some, .some):
            throw TraceRuleError("it has both \"within\" and \"notAtEnd\"; a rule has exactly one of them")
        case (let within?, nil):
            guard let caseValue = object["case"] else {
                throw TraceRuleError("a \"within\" rule needs \"case\", the case the store must leave soon")
            }
            guard let caseName = caseValue.stringValue else {
                throw TraceRuleError("\"case\" is \(TraceHeader.describe(caseValue)), expected a case name (a string)")
            }
            let (events, seconds) = try limits(within)
            return TraceRule(store: store, condition: .within(caseName: caseName, events: events, seconds: seconds))
        case (nil, let notAtEnd?):
            guard case .array(let values) = notAtEnd else {
                throw TraceRuleError(
                    "\"notAtEnd\" is \(TraceHeader.describe(notAtEnd)), expected an array of case names")
            }
            var cases: [String] = []
            for value in values {
                guard let name = value.stringValue else {
                    throw TraceRuleError(
                        "\"notAtEnd\" lists \(TraceHeader.describe(value)), expected case names (strings)")
                }
                cases.append(name)
            }
            return TraceRule(store: store, condition: .notAtEnd(cases))
        }
    }

    /// The `events` and `seconds` of a `within` value.
    private static func limits(_ within: JSONValue) throws(TraceRuleError) -> (events: Int?, seconds: Double?) {
        guard case .object(let object) = within else {
            throw TraceRuleError(
                "\"within\" is \(TraceHeader.describe(within)), expected an object {\"events\": K, \"seconds\": T}")
        }
        var events: Int?
        var seconds: Double?
        if let value = object["events"] {
            guard case .number(let text) = value, let count = positiveInteger(text) else {
                throw TraceRuleError(
                    "\"within\".\"events\" is \(TraceHeader.describe(value)), expected an integer of at least 1 (a number of transitions)"
                )
            }
            events = count
        }
        if let value = object["seconds"] {
            guard let number = value.doubleValue else {
                throw TraceRuleError(
                    "\"within\".\"seconds\" is \(TraceHeader.describe(value)), expected a number of seconds")
            }
            seconds = number
        }
        guard events != nil || seconds != nil else {
            throw TraceRuleError("\"within\" has neither \"events\" nor \"seconds\"; give at least one")
        }
        return (events, seconds)
    }

    /// The value of a JSON integer text of at least 1 (`Int.max` for a larger one than `Int`
    /// holds); nil for anything else (`0`, `-2`, `1.5`, `1e3`).
    private static func positiveInteger(_ text: String) -> Int? {
        let digits = text.utf8
        guard let first = digits.first, first >= UInt8(ascii: "1"), first <= UInt8(ascii: "9"),
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int(text) ?? Int.max
    }
}

/// Why a `rules` list is not shaped as the format page says: which rule, and what to change.
public struct TraceRuleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong and what was expected.
    public var message: String

    /// Creates an error with `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
