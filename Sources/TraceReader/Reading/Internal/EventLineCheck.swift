import Recorder
@_spi(RewindInternals) package import RewindSupport
import TraceJSON

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
/// A line is an event when it has a string `type` and an integer `seq`, and every key of the
/// format that it has is of the format's type, whatever the event's `type` (`seq`, `cause` and
/// `step` integers, `elapsed` a number, `store`, `action`, `case`, `from`, `to`, `source` and
/// `trace` strings, `changed` a boolean, `args` an object, `stack` an array of strings, `machine`
/// a machine; in version 2 a `patch` an array of operations, each an object with a string `op`
/// and a string `path`). A `register` or `restore` must also have `store` and `state`; a
/// `transition` `store`, `action`, `changed` and `state` (in version 2, exactly one of `state`
/// and `patch`); and for a store with a machine, a `register` or `restore` `case` and a
/// `transition` `from` and `to`. `TraceValidator` applies the same rules (with these functions
/// for the machine and the patch), so that both count the same events.
package enum EventLineCheck {
    /// What the line's `type` says.
    package enum EventType: Equatable {
        case register
        case transition
        /// A store set to a recorded state (time travel); not an action.
        case restore
        /// Any other type: an event that changes no store.
        case unknown
    }

    /// The event's type, or why the line is not an event, for the checks that do not depend on
    /// the store's machine. `line` is the line the fields were scanned from; `version` the
    /// trace's format version (1 or 2).
    static func check(_ fields: EventFields, in line: ByteView, version: Int) -> Result<
        EventType, Malformed
    > {
        if !fields.wrongTypes.isEmpty {
            return .failure(wrongTypes(in: fields))
        }
        guard let type = fields.type else { return .failure(Malformed("the event has no \"type\"")) }
        guard fields.seq != nil else { return .failure(Malformed("the event has no \"seq\"")) }
        let eventType = Self.eventType(type, in: line)
        switch eventType {
        case .register, .restore:
            if fields.store == nil || fields.stateRange == nil {
                let name = eventType == .register ? "register" : "restore"
                return .failure(missing(in: fields, of: name, [.store, .state]))
            }
        case .transition:
            if fields.store == nil || fields.action == nil || fields.changed == nil {
                return .failure(missing(in: fields, of: "transition", [.store, .action, .changed, .state]))
            }
            if let problem = stateOrPatchProblem(fields, version: version) { return .failure(problem) }
        case .unknown:
            break
        }
        if case .failure(let problem)? = machine(in: fields, line: line) { return .failure(problem) }
        // A patch is parsed (for the message) only when the scan that read it could not tell
        // that it is well shaped.
        if version >= 2, fields.patchRange != nil, !fields.patchIsWellShaped,
            case .failure(let problem)? = patchOperations(in: fields, line: line)
        {
            return .failure(problem)
        }
        return .success(eventType)
    }

    /// Why a transition's `state` and `patch` are not as its version wants: in version 1 `state`
    /// is required (a `patch` is a key version 1 does not know); in version 2 exactly one of
    /// them. Nil when they are right.
    static func stateOrPatchProblem(_ fields: EventFields, version: Int) -> Malformed? {
        let hasState = fields.stateRange != nil
        if version < 2 {
            return hasState ? nil : Malformed("\"state\" is missing (a transition event has its whole \"state\")")
        }
        let hasPatch = fields.patchRange != nil
        if hasState && hasPatch {
            return Malformed(
                "the transition has both \"state\" and \"patch\"; a version 2 transition carries exactly one of them")
        }
        if !hasState && !hasPatch {
            return Malformed(
                "the transition has neither \"state\" nor \"patch\"; a version 2 transition carries exactly one of them"
            )
        }
        return nil
    }

    /// `"seq" is not an integer, "elapsed" is not a number`.
    private static func wrongTypes(in fields: EventFields) -> Malformed {
        let wrong = EventFields.Key.allCases.filter { fields.wrongTypes.contains($0) }
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
        case .register where fields.caseName == nil, .restore where fields.caseName == nil:
            return Malformed(
                "store \(quoted(store)) has a state machine, so its \(type == .register ? "register" : "restore") event needs \"case\""
            )
        case .transition where fields.from == nil || fields.to == nil:
            return Malformed("store \(quoted(store)) has a state machine, so its transition needs \"from\" and \"to\"")
        default:
            return nil
        }
    }

    /// The event's `machine`, read as the header's machines are (`TraceHeader.parseMachine`), or
    /// why it is not shaped as one; nil when the event has none.
    static func machine(in fields: EventFields, line: ByteView) -> Result<MachineSpec, Malformed>? {
        guard let range = fields.machineRange else { return nil }
        return machine(line[range])
    }

    /// The machine written in `bytes` (valid JSON, checked by the scan), or why it is not one.
    static func machine(_ bytes: ByteView) -> Result<MachineSpec, Malformed> {
        guard let value = try? JSONParser.parse(bytes) else {
            return .failure(Malformed("\"machine\" cannot be read as JSON"))
        }
        do {
            return .success(try TraceHeader.parseMachine(value, name: "\"machine\""))
        } catch {
            return .failure(Malformed(error.message))
        }
    }

    /// The operations of the event's `patch` when it is shaped as the format's version 2 says
    /// (an array of objects, each with a string `op` and a string `path`), or why it is not; nil
    /// when the event has none. Only for version 2: in version 1 `patch` is an unknown key.
    static func patchOperations(in fields: EventFields, line: ByteView) -> Result<
        [JSONValue], Malformed
    >? {
        guard let range = fields.patchRange else { return nil }
        let shape = "an array of operations such as {\"op\":\"replace\",\"path\":\"/a\",\"value\":1}"
        guard let value = try? JSONParser.parse(line[range]) else {
            return .failure(Malformed("\"patch\" cannot be read as JSON"))
        }
        guard case .array(let operations) = value else {
            return .failure(Malformed("\"patch\" is \(TraceHeader.describe(value)), expected \(shape)"))
        }
        for (position, operation) in operations.enumerated() {
            guard case .object(let members) = operation else {
                return .failure(
                    Malformed("patch[\(position)] is \(TraceHeader.describe(operation)), expected an object"))
            }
            for key in ["op", "path"] {
                guard let member = members[key] else {
                    return .failure(
                        Malformed(
                            "patch[\(position)] has no \"\(key)\"; every operation has a string \"op\" and \"path\""))
                }
                guard member.stringValue != nil else {
                    return .failure(
                        Malformed(
                            "patch[\(position)]: \"\(key)\" is \(TraceHeader.describe(member)), expected a string"))
                }
            }
        }
        return .success(operations)
    }

    /// Why a line is not an event, as a sentence without the line number.
    struct Malformed: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// The type a `type` value names (the validator's rules use it too).
    @inline(__always)
    package static func eventType(_ text: EventFields.Text, in line: ByteView) -> EventType {
        if text.hasEscapes { return escapedEventType(text, in: line) }
        let bytes = line[text.range]
        if matches(bytes, "transition") { return .transition }
        if matches(bytes, "register") { return .register }
        if matches(bytes, "restore") { return .restore }
        return .unknown
    }

    /// `eventType` of a `type` written with escapes: decoded first. (Apart, so that the common
    /// case, inlined into the validator's loop, makes no `String`.)
    @inline(never)
    private static func escapedEventType(_ text: EventFields.Text, in line: ByteView) -> EventType {
        switch EventFields.string(text, in: line) {
        case "register": .register
        case "transition": .transition
        case "restore": .restore
        default: .unknown
        }
    }

    @inline(__always)
    private static func matches(_ bytes: ByteView, _ word: StaticString) -> Bool {
        bytes.equals(word)
    }

    /// A name in a message, as a terminal-safe JSON string.
    static func quoted(_ text: String) -> String {
        JSONPrinter.quoted(text, terminalSafe: true)
    }
}
