import TraceJSON
import TraceReader

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds the first step where two recorded runs differ: the engine of `inspector compare`, and
/// of `GoldenTrace` in an app's tests.
///
/// ```swift
/// let comparison = TraceComparison(ignoring: [try StatePathPattern(parsing: "CartStore.lines[*].addedAt")])
/// let result = try comparison.compare(.file("yesterday.jsonl"), .file("today.jsonl"))
/// if let difference = result.difference { print(difference.report()) }
/// ```
///
/// Events are aligned by their order in the files (the first event with the first event, …).
/// Two events agree when their `type`, `store`, `action`, `case`, `from`, `to`, `changed`,
/// `args` and a register's `machine` are the same JSON, and, for an event that sets a store's
/// state, the store's state after it is the same data (`JSONValue.isEquivalent`: members in
/// any order, numbers however written), once the `ignoring` paths are left out. `seq`,
/// `elapsed`, `source`, `stack` and `cause` never count. In a version 2 trace a transition's
/// `patch` is applied to the store's state before it, so a run recorded with patches agrees
/// with the same run recorded with whole states. When every event agrees, the headers'
/// `machines` are compared last.
///
/// Both traces are read as streams, side by side: memory holds each run's current app state
/// and the last `causeWindow` events (without their states), whatever the traces' length. A
/// cause further back than that is found by reading the file again from its start (bytes in
/// memory and regular files; a pipe cannot be read twice, and its chain then ends there as
/// `unreadable`).
public struct TraceComparison: Sendable {
    /// A trace to compare.
    public enum Input: Sendable {
        /// The trace file at a path (a pipe is read once, as it comes).
        case file(String)
        /// A trace held in memory, such as `MemorySink.data`, and what reports call it.
        case bytes([UInt8], name: String)

        /// The path, or the name given to the bytes.
        public var name: String {
            switch self {
            case .file(let path): path
            case .bytes(_, let name): name
            }
        }
    }

    /// What a comparison found.
    public struct Result: Sendable {
        /// The first difference; nil when the runs agree.
        public var difference: TraceDifference?
        /// How many events of each run agreed before the difference (all of them when none).
        public var agreeingEvents: Int
        /// Lines of each run skipped because they are not events (`inspector validate` says why).
        public var skippedLines: (first: Int, second: Int)
    }

    /// State values left out of the comparison, on both sides.
    public var ignoring: [StatePathPattern]
    /// How many of the latest events each side keeps for the cause chains of a difference.
    var causeWindow = 4096

    /// A comparison that leaves out the values `ignoring` matches.
    public init(ignoring: [StatePathPattern] = []) {
        self.ignoring = ignoring
    }

    /// Compares two runs.
    /// - Throws: `ValidationFileError` when a trace cannot be read or is not a trace, or when a
    ///   version 2 patch does not apply (the state after it is unknown).
    public func compare(_ first: Input, _ second: Input) throws(ValidationFileError) -> Result {
        var left = try RunWalk(first, window: causeWindow)
        var right = try RunWalk(second, window: causeWindow)
        var agreeing = 0
        while true {
            let a = try left.advance()
            let b = try right.advance()
            if a == nil && b == nil { break }
            let fields = differingFields(a, b, left: left, right: right)
            if !fields.isEmpty {
                let difference = TraceDifference(
                    position: agreeing + 1, fields: fields,
                    first: try left.side(event: a, input: first), second: try right.side(event: b, input: second),
                    stateDiff: StateDiff(from: ignored(left.appState), to: ignored(right.appState)), ignoring: ignoring)
                return Result(
                    difference: difference, agreeingEvents: agreeing,
                    skippedLines: (left.cursor.skippedLines, right.cursor.skippedLines))
            }
            agreeing += 1
        }
        var difference: TraceDifference?
        let machines = differingMachines(left.cursor.header, right.cursor.header)
        if !machines.isEmpty {
            difference = TraceDifference(
                position: 0, fields: ["machines"],
                first: TraceDifference.Side(name: first.name, eventCount: agreeing, machines: machines),
                second: TraceDifference.Side(name: second.name, eventCount: agreeing, machines: machines),
                stateDiff: StateDiff(from: JSONObject(), to: JSONObject()), ignoring: ignoring)
        }
        return Result(
            difference: difference, agreeingEvents: agreeing,
            skippedLines: (left.cursor.skippedLines, right.cursor.skippedLines))
    }

    /// The members in which two aligned events differ, in the order the format lists them;
    /// `["end"]` when one run has no more events.
    func differingFields(_ a: EventCursor.Event?, _ b: EventCursor.Event?, left: RunWalk, right: RunWalk) -> [String] {
        guard let a, let b else { return ["end"] }
        let x = a.event
        let y = b.event
        var fields: [String] = []
        if x.type != y.type { fields.append("type") }
        if x.store != y.store { fields.append("store") }
        if x.action != y.action { fields.append("action") }
        if x.caseName != y.caseName { fields.append("case") }
        if x.from != y.from { fields.append("from") }
        if x.to != y.to { fields.append("to") }
        if x.changed != y.changed { fields.append("changed") }
        if !sameValue(a, a.fields.argsRange, b, b.fields.argsRange) { fields.append("args") }
        if !sameValue(a, a.fields.machineRange, b, b.fields.machineRange) { fields.append("machine") }
        if x.setsState || y.setsState {
            let before = x.setsState ? x.store.flatMap { left.states[$0] } : nil
            let after = y.setsState ? y.store.flatMap { right.states[$0] } : nil
            if !sameState(before, after, store: x.store ?? "", other: y.store ?? "") { fields.append("state") }
        }
        return fields
    }

    /// Whether two members (`args`, `machine`) are absent from both events, or the same data.
    private func sameValue(
        _ a: EventCursor.Event, _ first: Range<Int>?, _ b: EventCursor.Event, _ second: Range<Int>?
    ) -> Bool {
        switch (a.raw(first), b.raw(second)) {
        case (nil, nil): return true
        case (let x?, let y?):
            if Self.sameBytes(x, y) { return true }
            guard let left = a.value(first), let right = b.value(second) else { return false }
            return left.isEquivalent(to: right)
        default: return false
        }
    }

    /// Whether two stores' states are the same data once the ignored paths are left out.
    private func sameState(_ a: RunWalk.StoreState?, _ b: RunWalk.StoreState?, store: String, other: String) -> Bool {
        if case .bytes(let x)? = a, case .bytes(let y)? = b, Self.sameBytes(x, y) { return true }
        switch (a?.value, b?.value) {
        case (nil, nil): return true
        case (let a?, let b?):
            if a.isEquivalent(to: b) { return true }
            guard !ignoring.isEmpty else { return false }
            let left = ignored(JSONObject([(store, a)]))[store]
            let right = ignored(JSONObject([(other, b)]))[other]
            switch (left, right) {
            case (nil, nil): return true
            case (let x?, let y?): return x.isEquivalent(to: y)
            default: return false
            }
        default: return false
        }
    }

    /// Whether two runs of bytes are equal, compared with `memcmp`.
    static func sameBytes(_ x: ArraySlice<UInt8>, _ y: ArraySlice<UInt8>) -> Bool {
        guard x.count == y.count else { return false }
        return x.withUnsafeBytes { left in
            y.withUnsafeBytes { right in
                left.count == 0 || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
            }
        }
    }

    /// An app state without the ignored values.
    func ignored(_ state: JSONObject) -> JSONObject {
        guard !ignoring.isEmpty else { return state }
        var value = JSONValue.object(state)
        for pattern in ignoring { value = pattern.removing(from: value) }
        return value.objectValue ?? JSONObject()
    }

    /// The stores whose machines the two headers declare differently (or only one declares).
    private func differingMachines(_ a: TraceHeader, _ b: TraceHeader) -> [String] {
        var names = a.machineOrder
        names += b.machineOrder.filter { a.machines[$0] == nil }
        return names.filter { name in
            switch (a.machines[name], b.machines[name]) {
            case (let x?, let y?) where x == y: false
            case (let x?, let y?):
                x.initial != y.initial || x.transitions.mapValues(Set.init) != y.transitions.mapValues(Set.init)
            default: true
            }
        }
    }
}
