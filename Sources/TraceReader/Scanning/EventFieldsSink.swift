@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) import TraceJSON

/// The general reading of an event line: a sink of the one JSON walker (`JSONScanner.scanValue`)
/// that keeps the top-level members the format defines (shared/TRACE_FORMAT.md, "Events") as
/// `EventFields`, and builds nothing else.
///
/// The walker checks the grammar and calls this sink per token; the sink only keeps track of
/// where it is (the depth, the member whose value is being read) and what each member's value
/// turned out to be. A value of the wrong JSON type is listed in `wrongTypes`; when a member is
/// written twice, the last one wins, as in `JSONValue.subscript(key:)`. A `stack` is checked to
/// hold strings only, and a `patch` is shown to `PatchShapeSink` token by token, so both are read
/// in the same walk.
struct EventFieldsSink: JSONEventSink {
    /// The line being walked: member names and integers are read from it.
    let line: ByteView
    /// What was found so far.
    private(set) var fields = EventFields()
    /// Whether the line's value ended (anything after it but whitespace is an error).
    private(set) var isComplete = false
    /// When the line's value is not an object: what it is, for the message ("an array").
    private(set) var notAnObject: String?

    /// Open containers: 1 inside the event object, 2 inside one of its members' values.
    private var depth = 0
    /// The member whose value comes next or is being read; nil for a name the format does not define.
    private var member: EventFields.Key?
    /// Where that value starts.
    private var valueStart = 0
    /// For a `stack`: whether every element so far is a string.
    private var stackHoldsStrings = true
    /// For a `patch`: its shape, told of every token of the value.
    private var patchShape = PatchShapeSink()

    init(_ line: ByteView) {
        self.line = line
    }

    /// The JSON type a member's value turned out to have.
    fileprivate enum ValueKind { case object, array, string, number, bool(Bool), null }

    // MARK: Values

    /// A scalar at any depth: the line itself, a member's value, or a token inside one.
    @inline(__always)
    private mutating func scalar(_ kind: ValueKind, from start: Int, to end: Int, hasEscapes: Bool = false) {
        switch depth {
        case 0:
            notAnObject = kind.description
            isComplete = true
        case 1:
            valueStart = start
            finish(kind, end: end, hasEscapes: hasEscapes)
        case 2:
            if member == .stack, !kind.isString { stackHoldsStrings = false }
        default: break
        }
    }

    /// Whether the token at the current depth belongs to a `patch` member's value, which
    /// `patchShape` is told of token by token (itself included).
    @inline(__always)
    private var inPatch: Bool { depth >= 1 && member == .patch }

    /// The value of `member`, which ends at `end`, is of `kind`: keep it or list its wrong type.
    private mutating func finish(_ kind: ValueKind, end: Int, hasEscapes: Bool) {
        guard let key = member else { return }
        var rightType = true
        switch (key, kind) {
        case (.type, .string), (.store, .string), (.action, .string), (.caseName, .string), (.from, .string),
            (.to, .string), (.source, .string):
            fields.setText(EventFields.Text(range: (valueStart + 1)..<(end - 1), hasEscapes: hasEscapes), for: key)
        case (.seq, .number), (.cause, .number), (.step, .number):
            // An integer written without fraction or exponent that fits in `Int`.
            var cursor = EventScanner.Cursor(line)
            cursor.position = valueStart
            if let integer = cursor.scanPlainInteger(), cursor.position == end {
                if key == .seq { fields.seq = integer } else if key == .cause { fields.cause = integer }
            } else {
                rightType = false
            }
        case (.elapsed, .number): fields.elapsedRange = valueStart..<end
        case (.changed, .bool(let value)): fields.changed = value
        case (.state, _): fields.stateRange = valueStart..<end
        case (.args, .object): fields.argsRange = valueStart..<end
        case (.machine, .object): fields.machineRange = valueStart..<end
        case (.trace, .string): break
        case (.stack, .array): rightType = stackHoldsStrings
        case (.patch, _):
            // Any value is kept: its shape matters in version 2 only (`EventLineCheck.patchOperations`).
            fields.patchRange = valueStart..<end
            fields.patchIsWellShaped = patchShape.wellShaped
        default: rightType = false
        }
        if rightType { fields.present.insert(key) } else { fields.wrongTypes.insert(key) }
    }

    // MARK: JSONEventSink

    mutating func beginObject(at offset: Int) { begin(.object, at: offset) }
    mutating func beginArray(at offset: Int) { begin(.array, at: offset) }
    mutating func endObject(at offset: Int) { end(.object, at: offset) }
    mutating func endArray(at offset: Int) { end(.array, at: offset) }

    @inline(__always)
    private mutating func begin(_ kind: ValueKind, at offset: Int) {
        if inPatch {
            if case .object = kind { patchShape.beginObject(at: offset) } else { patchShape.beginArray(at: offset) }
        }
        switch depth {
        case 0: if case .array = kind { notAnObject = kind.description }
        case 1: valueStart = offset
        case 2: if member == .stack { stackHoldsStrings = false }
        default: break
        }
        depth &+= 1
    }

    @inline(__always)
    private mutating func end(_ kind: ValueKind, at offset: Int) {
        depth &-= 1
        if inPatch {
            if case .object = kind { patchShape.endObject(at: offset) } else { patchShape.endArray(at: offset) }
        }
        if depth == 1 {
            finish(kind, end: offset &+ 1, hasEscapes: false)
        } else if depth == 0 {
            isComplete = true
        }
    }

    mutating func key(_ bytes: ByteView, from start: Int, to end: Int, hasEscapes: Bool) {
        guard depth == 1 else {
            if member == .patch { patchShape.key(bytes, from: start, to: end, hasEscapes: hasEscapes) }
            return
        }
        if hasEscapes {
            let text = EventFields.Text(range: start..<end, hasEscapes: true)
            member = EventScanner.key(named: EventFields.string(text, in: line))
        } else if end &- start <= 8 {
            // The name's bytes as `EventScanner.pack` packs them (checked JSON: no NUL; a
            // non-ASCII byte packs to a number no key has).
            member = EventScanner.key(
                packed: JSONScanner.prefixWord(bytes, at: start, length: end &- start))
        } else {
            member = nil
        }
        guard let member else { return }
        // The last member with this key wins: forget what an earlier one said.
        if (fields.present.bits | fields.wrongTypes.bits) & (1 &<< member.rawValue) != 0 { fields.clear(member) }
        // What the value's tokens are checked against, from its first one.
        if member == .stack { stackHoldsStrings = true }
        if member == .patch { patchShape = PatchShapeSink() }
    }

    mutating func string(_ bytes: ByteView, from start: Int, to end: Int, hasEscapes: Bool) {
        if inPatch { patchShape.string(bytes, from: start, to: end, hasEscapes: hasEscapes) }
        // The range excludes the quotes; a member's value includes them.
        scalar(.string, from: start &- 1, to: end &+ 1, hasEscapes: hasEscapes)
    }

    mutating func number(_ bytes: ByteView, from start: Int, to end: Int) {
        if inPatch { patchShape.number(bytes, from: start, to: end) }
        scalar(.number, from: start, to: end)
    }

    mutating func literal(_ value: JSONValue, at offset: Int) {
        if inPatch { patchShape.literal(value, at: offset) }
        if case .bool(let flag) = value {
            scalar(.bool(flag), from: offset, to: offset &+ (flag ? 4 : 5))
        } else {
            scalar(.null, from: offset, to: offset &+ 4)
        }
    }
}

extension EventFieldsSink.ValueKind: CustomStringConvertible {
    /// Whether the value is a string.
    var isString: Bool {
        if case .string = self { true } else { false }
    }

    /// "an array", for the message about a line that is not an object.
    var description: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}
