@_spi(RewindInternals) internal import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which lines after the header are events: the `malformed` rules of shared/TRACE_FORMAT.md
/// ("Validity"), applied to a line that `EventScanner` read as one JSON object.
///
/// A line is an event when it has a string `type` and an integer `seq`; a `register` or
/// `transition` must also have every key of the format that it has of the right JSON type, a
/// `register` `store` and `state`, a `transition` `store`, `action`, `state` and `changed`, and,
/// for a store with a machine, a `register` `case` and a `transition` `from` and `to`. These are
/// the rules `TraceValidator` applies, so that both count the same events.
enum EventLineCheck {
    /// What the line's `type` says.
    enum EventType: Equatable {
        case register
        case transition
        /// Any other type: an event that changes no store.
        case unknown
    }

    /// The event's type, or why the line is not an event, for the checks that do not depend on
    /// the store. `line` is the line the fields were scanned from.
    static func check(_ fields: EventFields, in line: UnsafeRawBufferPointer) -> Result<EventType, Malformed> {
        if fields.wrongTypes.contains(.type) || fields.wrongTypes.contains(.seq) {
            return .failure(wrongTypes(in: fields, among: [.type, .seq]))
        }
        guard let type = fields.type else { return .failure(Malformed("the event has no \"type\"")) }
        guard fields.seq != nil else { return .failure(Malformed("the event has no \"seq\"")) }
        let eventType = Self.eventType(type, in: line)
        switch eventType {
        case .register:
            if !fields.wrongTypes.isEmpty { return .failure(wrongTypes(in: fields, among: EventFields.Key.allCases)) }
            if fields.store == nil || fields.stateRange == nil {
                return .failure(missing(in: fields, of: "register", [.store, .state]))
            }
        case .transition:
            if !fields.wrongTypes.isEmpty { return .failure(wrongTypes(in: fields, among: EventFields.Key.allCases)) }
            if fields.store == nil || fields.action == nil || fields.stateRange == nil || fields.changed == nil {
                return .failure(missing(in: fields, of: "transition", [.store, .action, .state, .changed]))
            }
        case .unknown:
            // Only the keys every event has are checked: a future type may give the others
            // another meaning (the validator's rule too).
            break
        }
        return .success(eventType)
    }

    /// `"seq" is not an integer, "elapsed" is not a number`.
    private static func wrongTypes(in fields: EventFields, among keys: [EventFields.Key]) -> Malformed {
        let wrong = keys.filter { fields.wrongTypes.contains($0) }
        return Malformed(wrong.map { "\"\($0.name)\" is not \($0.expectedType)" }.joined(separator: ", "))
    }

    /// `a register event needs "store", "state"; this one has no "state"`.
    private static func missing(in fields: EventFields, of type: String, _ required: [EventFields.Key]) -> Malformed {
        let absent = required.filter { !fields.has($0) }.map { "\"\($0.name)\"" }.joined(separator: ", ")
        let all = required.map { "\"\($0.name)\"" }.joined(separator: ", ")
        return Malformed("a \(type) event needs \(all); this one has no \(absent)")
    }

    /// Why the event of a store that has a state machine is not an event, or nil when it is one.
    static func machineProblem(_ fields: EventFields, type: EventType, store: String) -> Malformed? {
        switch type {
        case .register where fields.caseName == nil:
            return Malformed(
                "store \(quoted(store)) has a state machine in the header, so its register event needs \"case\"")
        case .transition where fields.from == nil || fields.to == nil:
            return Malformed(
                "store \(quoted(store)) has a state machine in the header, so its transition needs \"from\" and \"to\"")
        default:
            return nil
        }
    }

    /// Why a line is not an event, as a sentence without the line number.
    struct Malformed: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// The type a `type` value names (the validator's rules use it too).
    @inline(__always)
    static func eventType(_ text: EventFields.Text, in line: UnsafeRawBufferPointer) -> EventType {
        if text.hasEscapes {
            switch EventFields.string(text, in: line) {
            case "register": return .register
            case "transition": return .transition
            default: return .unknown
            }
        }
        let bytes = UnsafeRawBufferPointer(rebasing: line[text.range])
        if matches(bytes, "transition") { return .transition }
        if matches(bytes, "register") { return .register }
        return .unknown
    }

    @inline(__always)
    private static func matches(_ bytes: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount, let base = bytes.baseAddress else { return false }
        return ShortBytes.equal(base, word.utf8Start, count: bytes.count)
    }

    /// A name in a message, as a terminal-safe JSON string.
    static func quoted(_ text: String) -> String {
        JSONPrinter.quoted(text, terminalSafe: true)
    }
}
