import Recorder
@_spi(RewindInternals) package import RewindSupport
import TraceJSON

/// Line 1 of a trace: the format, its version, the recording app and the state machines of its
/// stores (shared/TRACE_FORMAT.md, "Line 1: the header").
///
/// ```swift
/// let header = try line.withUnsafeBytes { try TraceHeader.parse($0) }
/// header.machines["CatalogStore"]?.allows(from: "idle", to: "loading")   // true
/// ```
public struct TraceHeader: Sendable, Equatable {
    /// The format version; `parse` accepts 1 and 2 (`supportedVersions`).
    public var version: Int
    /// The recording app's name, when the header has one.
    public var app: String?
    /// The wall-clock start of the recording, RFC 3339 in UTC, as written.
    public var started: String?
    /// Each store's state machine, by store name.
    public var machines: [String: MachineSpec]
    /// The store names of `machines`, in the order the header lists them.
    public var machineOrder: [String]
    /// The rules over time of the header's `rules` (shared/TRACE_FORMAT.md, "Rules over time"),
    /// in the order written; empty when the header has none.
    public var rules: [TraceRule]

    /// The version a writer writes unless it needs version 2 (a transition with a `patch`).
    public static let supportedVersion = 1
    /// The versions of the format this library reads: 1, and 2 (transitions may carry a `patch`).
    public static let supportedVersions = 1...2

    /// Creates a header from its parts.
    public init(
        version: Int = TraceHeader.supportedVersion, app: String? = nil, started: String? = nil,
        machines: [String: MachineSpec] = [:], machineOrder: [String]? = nil, rules: [TraceRule] = []
    ) {
        self.version = version
        self.app = app
        self.started = started
        self.machines = machines
        self.machineOrder = machineOrder ?? machines.keys.sorted()
        self.rules = rules
    }

    /// Reads the header from the bytes of line 1 (without its `\n`; a `\r` before it is fine).
    ///
    /// - Throws: `TraceHeaderError` saying why the line is not a version 1 or 2 trace header: not
    ///   JSON, not an object, `type` not `"header"`, an unknown `format` or `version`, `machines`
    ///   missing or not shaped as the format page says, or `rules` not shaped as rules.
    ///
    /// `app` and `started` are optional and informative: when one is not a string it is read as
    /// absent rather than refusing the whole trace (the format page lists their types but does
    /// not make a wrong one fatal).
    public static func parse(_ line: UnsafeRawBufferPointer) throws(TraceHeaderError) -> TraceHeader {
        try parse(ByteView(line))
    }

    /// `parse` of a line as the reader holds it.
    package static func parse(_ line: ByteView) throws(TraceHeaderError) -> TraceHeader {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            if (0..<line.count).allSatisfy({ line[$0] == 0x0D }) {
                throw TraceHeaderError(
                    "line 1 is empty; a Rewind trace starts with its header line {\"type\":\"header\",\"format\":\"rewind-trace\",\"version\":1,\"machines\":{...}}"
                )
            }
            throw TraceHeaderError(
                "line 1 is not JSON (column \(error.column): \(error.message)); a Rewind trace starts with its header line {\"type\":\"header\",\"format\":\"rewind-trace\",...}"
            )
        }
        guard case .object(let object) = value else {
            throw TraceHeaderError(
                "line 1 is not a trace header: it is a JSON \(value.kindName), expected an object with \"type\":\"header\""
            )
        }
        try expect(object, key: "type", equals: "header")
        try expect(object, key: "format", equals: "rewind-trace")

        guard let versionValue = object["version"] else {
            throw TraceHeaderError(
                "line 1 is not a trace header: it has no \"version\"; expected \"version\":1 or \"version\":2")
        }
        guard let version = versionValue.intValue else {
            if case .number(let text) = versionValue, text.utf8.allSatisfy({ $0 == 0x2D || ($0 >= 0x30 && $0 <= 0x39) })
            {
                // An integer too large for `Int`: a version all the same, and not one this reads.
                throw TraceHeaderError(
                    "unknown trace version \(describe(versionValue)); this inspector reads versions 1 and 2 (upgrade Rewind to read newer traces)"
                )
            }
            throw TraceHeaderError(
                "line 1 is not a trace header: \"version\" is \(describe(versionValue)), expected the integer 1 or 2"
            )
        }
        guard supportedVersions.contains(version) else {
            throw TraceHeaderError(
                "unknown trace version \(version); this inspector reads versions 1 and 2 (upgrade Rewind to read newer traces)"
            )
        }

        guard let machinesValue = object["machines"] else {
            throw TraceHeaderError(
                "line 1 is not a trace header: it has no \"machines\"; a trace without state machines still writes \"machines\":{}"
            )
        }
        let (machines, order) = try parseMachines(machinesValue, context: "the header's \"machines\"")
        var rules: [TraceRule] = []
        if let rulesValue = object["rules"] {
            do {
                rules = try TraceRule.parseList(rulesValue)
            } catch {
                throw TraceHeaderError("line 1 is not a trace header: its \(error.message)")
            }
        }
        return TraceHeader(
            version: version, app: object["app"]?.stringValue, started: object["started"]?.stringValue,
            machines: machines, machineOrder: order, rules: rules)
    }

    /// Why `line` is not a trace header, as `TraceFile` says it when it cannot open a file.
    static func whyNotAHeader(_ line: [UInt8]) -> String {
        let parsed = line.withUnsafeBytes { bytes in
            Result { () throws(TraceHeaderError) in try parse(bytes) }
        }
        if case .failure(let error) = parsed { return error.message }
        return "line 1 is not a trace header"
    }

    /// Reads a `machines` value, store name → `{"initial": CASE, "transitions": {CASE: [CASE, ...]}}`,
    /// as the header and `--spec` files write it.
    ///
    /// - Parameters:
    ///   - value: the `machines` value.
    ///   - context: where `value` comes from, for the message when `value` itself is not an
    ///     object, such as `the header's "machines"` or `spec.json's "machines"`.
    /// - Returns: the machines by store name, and the store names in the order written.
    /// - Throws: `TraceHeaderError` naming the store and case when a machine is not shaped as
    ///   the format page says. Keys that the format does not define are ignored; a store named
    ///   twice, or a case that is a key of `transitions` twice, is refused as ambiguous.
    package static func parseMachines(
        _ value: JSONValue, context: String
    ) throws(TraceHeaderError) -> (machines: [String: MachineSpec], order: [String]) {
        guard case .object(let stores) = value else {
            throw TraceHeaderError(
                "\(context) is \(describe(value)), expected an object mapping each store name to its machine")
        }
        var machines: [String: MachineSpec] = [:]
        var order: [String] = []
        for (store, machineValue) in stores {
            let name = quoted(store)
            guard machines[store] == nil else {
                throw TraceHeaderError("\(context) lists machine \(name) twice; keep one")
            }
            machines[store] = try parseMachine(machineValue, name: "machine \(name)")
            order.append(store)
        }
        return (machines, order)
    }

    /// Reads one machine, `{"initial": CASE, "transitions": {CASE: [CASE, ...]}}`, as the header,
    /// a `--spec` file and a `register` event's `machine` write it.
    /// - Parameter name: what messages call it: `machine "CatalogStore"`, `"machine"`.
    /// - Throws: `TraceHeaderError` naming the case when the machine is not shaped as the format
    ///   page says.
    static func parseMachine(_ value: JSONValue, name: String) throws(TraceHeaderError) -> MachineSpec {
        let shape = "{\"initial\": CASE, \"transitions\": {CASE: [CASE, ...]}}"
        guard case .object(let machine) = value else {
            throw TraceHeaderError("\(name) is \(describe(value)), expected an object \(shape)")
        }
        guard let initialValue = machine["initial"] else {
            throw TraceHeaderError("\(name) has no \"initial\" case; expected \(shape)")
        }
        guard let initial = initialValue.stringValue else {
            throw TraceHeaderError(
                "\(name): \"initial\" is \(describe(initialValue)), expected a case name (a string)")
        }
        guard let tableValue = machine["transitions"] else {
            throw TraceHeaderError("\(name) has no \"transitions\"; expected \(shape)")
        }
        guard case .object(let table) = tableValue else {
            throw TraceHeaderError(
                "\(name): \"transitions\" is \(describe(tableValue)), expected an object mapping each case to the cases it may go to"
            )
        }
        var cases: [String] = []
        var transitions: [String: [String]] = [:]
        for (source, targetsValue) in table {
            guard transitions[source] == nil else {
                throw TraceHeaderError(
                    "\(name): case \(quoted(source)) is a key of \"transitions\" twice; keep one")
            }
            guard case .array(let targetValues) = targetsValue else {
                throw TraceHeaderError(
                    "\(name): the transitions of \(quoted(source)) are \(describe(targetsValue)), expected an array of case names ([] for a final case)"
                )
            }
            var targets: [String] = []
            targets.reserveCapacity(targetValues.count)
            for target in targetValues {
                guard let targetName = target.stringValue else {
                    throw TraceHeaderError(
                        "\(name): the transitions of \(quoted(source)) list \(describe(target)), expected case names (strings)"
                    )
                }
                targets.append(targetName)
            }
            cases.append(source)
            transitions[source] = targets
        }
        guard transitions[initial] != nil else {
            throw TraceHeaderError(
                "\(name): initial case \(quoted(initial)) is not a key of \"transitions\"; every case must be one (a final case maps to [])"
            )
        }
        for source in cases {
            for target in transitions[source] ?? [] where transitions[target] == nil {
                throw TraceHeaderError(
                    "\(name): the transitions of \(quoted(source)) list \(quoted(target)), which is not a key of \"transitions\"; add \(quoted(target)): [] if it is a final case"
                )
            }
        }
        return MachineSpec(initial: initial, cases: cases, transitions: transitions)
    }

    /// Checks that `object[key]` is the string `expected`.
    private static func expect(_ object: JSONObject, key: String, equals expected: String) throws(TraceHeaderError) {
        guard let value = object[key] else {
            throw TraceHeaderError(
                "line 1 is not a trace header: it has no \"\(key)\"; expected \"\(key)\":\"\(expected)\"")
        }
        guard value.stringValue == expected else {
            throw TraceHeaderError(
                "line 1 is not a trace header: \"\(key)\" is \(describe(value)), expected \"\(expected)\"")
        }
    }

    /// A JSON string literal for a name in a message.
    static func quoted(_ text: String) -> String {
        JSONPrinter.quoted(text, terminalSafe: true)
    }

    /// A short description of a value for a message: `"foo"`, `2`, `an array`, `null`.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let text):
            return text.unicodeScalars.count > 60 ? quoted(String(text.prefix(60)) + "…") : quoted(text)
        case .number(let text):
            return text.count > 30 ? String(text.prefix(30)) + "…" : text
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// Why line 1 of a file is not a trace header that this library can read, as a sentence a person
/// can act on: `unknown trace version 2; this inspector reads version 1 (…)`.
public struct TraceHeaderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong and what was expected.
    public var message: String

    /// Creates an error with `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
