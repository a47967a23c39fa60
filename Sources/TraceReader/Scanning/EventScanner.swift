@_spi(RewindInternals) import TraceJSON

/// Reads the top-level members of one event line (shared/TRACE_FORMAT.md, "Events") without
/// building the values it does not need: `state` and `args` are checked and skipped, and their
/// byte ranges kept, so that a reader can parse them later and a validator never has to.
///
/// The whole line is checked as strict JSON on the way (the same grammar as `JSONParser`), so
/// `scan` throws exactly when the line is not one valid JSON object. Members may come in any
/// order; members the format does not define are checked and skipped. When a key appears twice,
/// the last one wins, as in `JSONValue.subscript(key:)`.
///
/// Per line this allocates nothing in the common case: keys are compared as bytes, and string
/// values are returned as byte ranges (`EventFields.Text`) to turn into `String`s only when needed.
package enum EventScanner {
    /// Scans `line`, the bytes of one line without its `\n` (a `\r` before it is whitespace).
    ///
    /// - Throws: `JSONParseError` when the line is not exactly one valid JSON object; its
    ///   `column` and `offset` count bytes from the start of the line and its `line` is 1.
    package static func scan(_ line: UnsafeRawBufferPointer) throws(JSONParseError) -> EventFields {
        var fields = EventFields()
        try scan(line, into: &fields)
        return fields
    }

    /// Scans `line` into `fields`, which must be empty (`EventFields()`) on entry: the validator's
    /// worker threads scan straight into the slot the line's fields are kept in, so that the
    /// fields (about 150 bytes) are not copied on their way there.
    ///
    /// - Throws: as `scan(_:)`; `fields` then holds a part of the line, to be thrown away.
    @inline(__always)
    static func scan(_ line: UnsafeRawBufferPointer, into fields: inout EventFields) throws(JSONParseError) {
        guard line.count < Int(UInt32.max) else {
            throw JSONParseError(line: 1, column: 1, offset: 0, message: "the line is longer than 4 GiB")
        }
        var fast = Cursor(line)
        if fast.scanRecorderLayout(into: &fields) { return }
        fields = try scanGenerally(line)
    }

    /// The fields of `line` when it has the recorder's layout; nil otherwise (for tests).
    static func scanRecorderLayout(_ line: UnsafeRawBufferPointer) -> EventFields? {
        guard line.count < Int(UInt32.max) else { return nil }
        var cursor = Cursor(line)
        var fields = EventFields()
        return cursor.scanRecorderLayout(into: &fields) ? fields : nil
    }

    /// Scans `line` member by member, whatever their order and spacing: the path for lines that
    /// do not have the recorder's layout (`RecorderLayout.swift`), and for the tests that compare
    /// the two.
    static func scanGenerally(_ line: UnsafeRawBufferPointer) throws(JSONParseError) -> EventFields {
        var cursor = Cursor(line)
        return try cursor.scanEvent()
    }

    // MARK: Key names, packed into an integer

    /// The bytes of an ASCII key of at most 8 bytes as a little-endian integer: `"seq"` is
    /// 0x716573. Keys are compared by this number, so no `String` is made per key.
    static func pack(_ bytes: some Sequence<UInt8>) -> UInt64? {
        var value: UInt64 = 0
        for (index, byte) in bytes.enumerated() {
            guard index < 8, byte != 0, byte < 0x80 else { return nil }
            value |= UInt64(byte) << (8 * UInt64(index))
        }
        return value
    }

    /// The format's key for a packed name, or nil for a key the format does not define.
    /// (The numbers are `pack` of each name; a test checks them.)
    @inline(__always)
    static func key(packed: UInt64) -> EventFields.Key? {
        switch packed {
        case 0x6570_7974: .type
        case 0x71_6573: .seq
        case 0x64_6573_7061_6C65: .elapsed
        case 0x65_726F_7473: .store
        case 0x6E6F_6974_6361: .action
        case 0x6573_6163: .caseName
        case 0x6D6F_7266: .from
        case 0x6F74: .to
        case 0x64_6567_6E61_6863: .changed
        case 0x65_7461_7473: .state
        case 0x6563_7275_6F73: .source
        case 0x65_7375_6163: .cause
        case 0x7367_7261: .args
        case 0x7065_7473: .step
        case 0x65_6361_7274: .trace
        case 0x6B_6361_7473: .stack
        case 0x65_6E69_6863_616D: .machine
        case 0x68_6374_6170: .patch
        default: nil
        }
    }

    /// The format's key for a decoded name (a key written with escapes, such as `"se\u0071"`).
    static func key(named name: String) -> EventFields.Key? {
        pack(name.utf8).flatMap(key(packed:))
    }

    // MARK: The cursor

    /// A position in the line being scanned.
    struct Cursor {
        let line: UnsafeRawBufferPointer
        let base: UnsafePointer<UInt8>
        let count: Int
        var position = 0
        /// Whether the fast path (`RecorderLayout.swift`) skipped a value with a general skip,
        /// which takes whitespace between tokens, `\n` included: a scan whose line end is not
        /// known in advance (`scanRecorderLine`) must then check that it did not pass one.
        var tookGeneralSkip = false

        init(_ line: UnsafeRawBufferPointer) {
            self.line = line
            // An empty buffer may have no address; it is then never read.
            self.base = line.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 0x10)!
            self.count = line.count
        }

        @inline(__always)
        mutating func skipWhitespace() {
            position = JSONWhitespace.skip(base, from: position, to: count)
        }

        mutating func scanEvent() throws(JSONParseError) -> EventFields {
            var fields = EventFields()
            skipWhitespace()
            guard position < count, base[position] == UInt8(ascii: "{") else { throw notAnObject() }
            position &+= 1
            skipWhitespace()
            if position < count && base[position] == UInt8(ascii: "}") {
                position &+= 1
            } else {
                while true {
                    try scanMember(into: &fields)
                    skipWhitespace()
                    guard position < count else {
                        throw error("unexpected end of input, expected ',' or '}' after an object member")
                    }
                    let byte = base[position]
                    position &+= 1
                    if byte == UInt8(ascii: ",") {
                        skipWhitespace()
                        continue
                    }
                    if byte == UInt8(ascii: "}") { break }
                    position &-= 1
                    throw error("expected ',' or '}' after an object member, found \(describe(position))")
                }
            }
            skipWhitespace()
            guard position == count else {
                throw error(
                    "expected the end of the line after the event's closing '}', found \(describe(position)) (a line holds exactly one JSON object)"
                )
            }
            return fields
        }

        /// Scans `"key": value` and stores what the format defines.
        @inline(__always)
        mutating func scanMember(into fields: inout EventFields) throws(JSONParseError) {
            guard position < count else {
                throw error("unexpected end of input, expected a member name (a string)")
            }
            guard base[position] == UInt8(ascii: "\"") else {
                if base[position] == UInt8(ascii: "}") {
                    throw error("trailing commas are not allowed: expected a member name after ',', found '}'")
                }
                throw error("expected a member name (a string), found \(describe(position))")
            }
            let key = try scanKey()
            skipWhitespace()
            guard position < count, base[position] == UInt8(ascii: ":") else {
                throw error(
                    position < count
                        ? "expected ':' after a member name, found \(describe(position))"
                        : "unexpected end of input, expected ':' after a member name")
            }
            position &+= 1
            skipWhitespace()
            guard let key else {
                position = try JSONSyntax.skipValue(in: line, at: position)
                return
            }
            // The last member with this key wins: forget what an earlier one said.
            if (fields.present.bits | fields.wrongTypes.bits) & (1 &<< key.rawValue) != 0 { fields.clear(key) }
            let start = position
            let first: UInt8 = position < count ? base[position] : 0
            switch key {
            case .type, .store, .action, .caseName, .from, .to, .source:
                if first == UInt8(ascii: "\"") {
                    let text = try scanStringValue()
                    fields.setText(text, for: key)
                    fields.present.insert(key)
                } else {
                    position = try JSONSyntax.skipValue(in: line, at: position)
                    fields.wrongTypes.insert(key)
                }
            case .seq, .cause:
                if let integer = scanPlainInteger() {
                    if key == .seq { fields.seq = integer } else { fields.cause = integer }
                    fields.present.insert(key)
                } else {
                    position = try JSONSyntax.skipValue(in: line, at: start)
                    fields.wrongTypes.insert(key)
                }
            case .elapsed:
                if !scanNumber() { position = try JSONSyntax.skipValue(in: line, at: position) }
                if first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) {
                    fields.elapsedRange = start..<position
                    fields.present.insert(key)
                } else {
                    fields.wrongTypes.insert(key)
                }
            case .changed:
                if !scanBoolean() { position = try JSONSyntax.skipValue(in: line, at: position) }
                if first == UInt8(ascii: "t") {
                    fields.changed = true
                    fields.present.insert(key)
                } else if first == UInt8(ascii: "f") {
                    fields.changed = false
                    fields.present.insert(key)
                } else {
                    fields.wrongTypes.insert(key)
                }
            case .state:
                position = try JSONSyntax.skipValue(in: line, at: position)
                fields.stateRange = start..<position
                fields.present.insert(key)
            case .args, .machine:
                // An object (a machine's shape is `EventLineCheck`'s to check).
                position = try JSONSyntax.skipValue(in: line, at: position)
                if first == UInt8(ascii: "{") {
                    if key == .args {
                        fields.argsRange = start..<position
                    } else {
                        fields.machineRange = start..<position
                    }
                    fields.present.insert(key)
                } else {
                    fields.wrongTypes.insert(key)
                }
            case .step:
                if scanPlainInteger() != nil {
                    fields.present.insert(key)
                } else {
                    position = try JSONSyntax.skipValue(in: line, at: start)
                    fields.wrongTypes.insert(key)
                }
            case .trace:
                if first == UInt8(ascii: "\"") {
                    _ = try scanStringValue()
                    fields.present.insert(key)
                } else {
                    position = try JSONSyntax.skipValue(in: line, at: position)
                    fields.wrongTypes.insert(key)
                }
            case .stack:
                position = try JSONSyntax.skipValue(in: line, at: position)
                if isArrayOfStrings(start..<position) {
                    fields.present.insert(key)
                } else {
                    fields.wrongTypes.insert(key)
                }
            case .patch:
                // Any JSON value: its shape matters in version 2 only (`EventLineCheck.patchOperations`).
                let (end, wellShaped) = try PatchShapeSink.skipValue(in: line, at: position)
                position = end
                fields.patchRange = start..<position
                fields.patchIsWellShaped = wellShaped
                fields.present.insert(key)
            }
        }

        /// Scans the member name whose opening quote is at `position`; returns the format's key
        /// it names, or nil for any other name.
        @inline(__always)
        mutating func scanKey() throws(JSONParseError) -> EventFields.Key? {
            let start = position &+ 1
            // Fast path: the name and its closing quote within the next 8 bytes, plain ASCII.
            if start &+ 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self))
                let flags = JSONScanner.attentionFlags(word)
                // The lowest flag is exact: the first byte that needs a look is the closing quote.
                let quote = flags.trailingZeroBitCount &>> 3
                if quote < 8 && base[start &+ quote] == UInt8(ascii: "\"") {
                    position = start &+ quote &+ 1
                    let packed = quote == 0 ? 0 : word & (UInt64.max &>> (64 &- 8 &* UInt64(quote)))
                    return EventScanner.key(packed: packed)
                }
            }
            let text = try scanStringValue()
            if text.hasEscapes {
                return EventScanner.key(named: EventFields.string(text, in: line))
            }
            guard text.range.count <= 8 else { return nil }
            return EventScanner.pack(UnsafeRawBufferPointer(rebasing: line[text.range])).flatMap(
                EventScanner.key(packed:))
        }

        /// Scans the string whose opening quote is at `position`; returns its body.
        @inline(__always)
        mutating func scanStringValue() throws(JSONParseError) -> EventFields.Text {
            let start = position &+ 1
            var offset = start
            // Straight to the first quote, backslash, control byte or non-ASCII byte.
            offset = JSONScanner.skipPlainASCII(base, from: offset, count: count)
            while offset < count {
                let byte = base[offset]
                if byte == UInt8(ascii: "\"") {
                    position = offset &+ 1
                    return EventFields.Text(range: start..<offset, hasEscapes: false)
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
                offset &+= 1
            }
            // Escapes, non-ASCII or control bytes: let the JSON checker find the end or the error.
            let end = try JSONSyntax.skipValue(in: line, at: position)
            position = end
            var hasEscapes = false
            for index in start..<(end &- 1) where base[index] == UInt8(ascii: "\\") {
                hasEscapes = true
                break
            }
            return EventFields.Text(range: start..<(end &- 1), hasEscapes: hasEscapes)
        }

        /// Moves past a valid JSON number at `position` and returns true; returns false (and
        /// does not move) when there is none, to let the JSON checker say what is wrong.
        @inline(__always)
        mutating func scanNumber() -> Bool {
            var offset = position
            @inline(__always) func isDigit(_ offset: Int) -> Bool {
                offset < count && base[offset] &- UInt8(ascii: "0") < 10
            }
            if offset < count && base[offset] == UInt8(ascii: "-") { offset &+= 1 }
            guard isDigit(offset) else { return false }
            if base[offset] == UInt8(ascii: "0") {
                offset &+= 1
            } else {
                while isDigit(offset) { offset &+= 1 }
            }
            if offset < count && base[offset] == UInt8(ascii: ".") {
                offset &+= 1
                guard isDigit(offset) else { return false }
                while isDigit(offset) { offset &+= 1 }
            }
            if offset < count && (base[offset] | 0x20) == UInt8(ascii: "e") {
                offset &+= 1
                if offset < count && (base[offset] == UInt8(ascii: "+") || base[offset] == UInt8(ascii: "-")) {
                    offset &+= 1
                }
                guard isDigit(offset) else { return false }
                while isDigit(offset) { offset &+= 1 }
            }
            // A digit right after the number ("01") is not JSON: let the checker report it.
            if isDigit(offset) { return false }
            position = offset
            return true
        }

        /// Moves past `true` or `false` at `position` and returns true; returns false otherwise.
        @inline(__always)
        mutating func scanBoolean() -> Bool {
            if position &+ 4 <= count
                && UnsafeRawPointer(base + position).loadUnaligned(as: UInt32.self) == UInt32(littleEndian: 0x6575_7274)
            {
                position &+= 4  // true
                return true
            }
            if position &+ 5 <= count && base[position &+ 4] == UInt8(ascii: "e")
                && UnsafeRawPointer(base + position).loadUnaligned(as: UInt32.self) == UInt32(littleEndian: 0x736C_6166)
            {
                position &+= 5  // false
                return true
            }
            return false
        }

        /// Whether the valid JSON value in `range` is an array whose elements are all strings
        /// (`stack`). Leaves the cursor where it was.
        func isArrayOfStrings(_ range: Range<Int>) -> Bool {
            var cursor = self
            cursor.position = range.lowerBound
            guard cursor.position < range.upperBound, base[cursor.position] == UInt8(ascii: "[") else { return false }
            cursor.position &+= 1
            cursor.skipWhitespace()
            if cursor.position < range.upperBound && base[cursor.position] == UInt8(ascii: "]") { return true }
            while cursor.position < range.upperBound {
                guard base[cursor.position] == UInt8(ascii: "\""), (try? cursor.scanStringValue()) != nil else {
                    return false
                }
                cursor.skipWhitespace()
                guard cursor.position < range.upperBound else { return false }
                let byte = base[cursor.position]
                cursor.position &+= 1
                if byte == UInt8(ascii: "]") { return true }
                guard byte == UInt8(ascii: ",") else { return false }
                cursor.skipWhitespace()
            }
            return false
        }

        /// Reads an integer written without fraction or exponent that fits in `Int`, and moves
        /// past it; returns nil (and does not move) for anything else, valid JSON or not.
        @inline(__always)
        mutating func scanPlainInteger() -> Int? {
            var offset = position
            var negative = false
            if offset < count && base[offset] == UInt8(ascii: "-") {
                negative = true
                offset &+= 1
            }
            let digitsStart = offset
            var magnitude: UInt64 = 0
            // Up to 18 digits cannot overflow 64 bits: no check per digit (a `seq` has about 7),
            // and one bound for both limits.
            let unchecked = min(count, digitsStart &+ 18)
            while offset < unchecked {
                let digit = base[offset] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                magnitude = magnitude &* 10 &+ UInt64(digit)
                offset &+= 1
            }
            while offset < count {
                let digit = base[offset] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
                if overflow1 || overflow2 { return nil }
                magnitude = sum
                offset &+= 1
            }
            let digitCount = offset &- digitsStart
            guard digitCount > 0 else { return nil }
            // A leading zero ("01") is not JSON; a fraction or exponent is not an integer.
            if digitCount > 1 && base[digitsStart] == UInt8(ascii: "0") { return nil }
            if offset < count {
                let next = base[offset]
                if next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") { return nil }
            }
            let value: Int
            if negative {
                guard magnitude <= UInt64(Int.max) &+ 1 else { return nil }
                value = magnitude == UInt64(Int.max) &+ 1 ? Int.min : -Int(magnitude)
            } else {
                guard magnitude <= UInt64(Int.max) else { return nil }
                value = Int(magnitude)
            }
            position = offset
            return value
        }

        // MARK: Errors

        /// The line does not start with `{`: a syntax error, or valid JSON of another type.
        func notAnObject() -> JSONParseError {
            if let syntax = JSONSyntax.validate(line) { return syntax }
            let kind =
                switch base[position] {
                case UInt8(ascii: "["): "an array"
                case UInt8(ascii: "\""): "a string"
                case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
                case UInt8(ascii: "n"): "null"
                default: "a number"
                }
            return error("the line is \(kind), not a JSON object; every line after the header is one event object")
        }

        func error(_ message: String) -> JSONParseError {
            JSONParseError(line: 1, column: position + 1, offset: position, message: message)
        }

        /// `'x'`, `byte 0xFF` or `end of input`, for messages.
        func describe(_ offset: Int) -> String {
            guard offset < count else { return "end of input" }
            let byte = base[offset]
            if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            let digits = String(byte, radix: 16, uppercase: true)
            return "byte 0x" + (byte < 16 ? "0" : "") + digits
        }
    }
}

/// The top-level members of one event line, as `EventScanner.scan` found them.
///
/// A member that is absent, or present with the wrong JSON type, is nil here; the wrong types
/// are listed in `wrongTypes`. Strings are byte ranges of the line; `string(_:in:)` makes them
/// `String`s.
package struct EventFields: Equatable {
    /// The body of a JSON string value in the line: the bytes between its quotes.
    package struct Text: Equatable {
        // 32-bit offsets keep `EventFields` small (a line is at most 1 GiB): the validator
        // copies one per line between threads.
        private var start: UInt32
        private var end: UInt32
        /// Whether the body holds a `\` escape, so that its bytes are not its text.
        package var hasEscapes: Bool

        init(range: Range<Int>, hasEscapes: Bool) {
            self.start = UInt32(truncatingIfNeeded: range.lowerBound)
            self.end = UInt32(truncatingIfNeeded: range.upperBound)
            self.hasEscapes = hasEscapes
        }

        /// The bytes between the quotes.
        package var range: Range<Int> { Int(start)..<Int(end) }
    }

    /// A byte range of the line, in 32 bits; `end` 0 when absent (no value ends at offset 0).
    struct Span: Equatable {
        var start: UInt32 = 0
        var end: UInt32 = 0

        @inline(__always)
        init(_ range: Range<Int>?) {
            if let range {
                start = UInt32(truncatingIfNeeded: range.lowerBound)
                end = UInt32(truncatingIfNeeded: range.upperBound)
            }
        }

        @inline(__always)
        var range: Range<Int>? { end == 0 ? nil : Int(start)..<Int(end) }
    }

    /// A key the format page defines for events.
    package enum Key: UInt16, CaseIterable, Sendable {
        // In the order the recorder writes them.
        case type, seq, elapsed, store, action, caseName, from, to, changed, state, source, cause, args
        // Since the format's version 2 page: `restore`'s `step` and `trace`, a transition's
        // `stack`, a register's `machine`, and a version 2 transition's `patch`.
        case step, trace, stack, machine, patch

        /// The key as written in a trace: `"case"` for `.caseName`.
        var name: String {
            switch self {
            case .caseName: "case"
            default: "\(self)"
            }
        }

        /// The JSON type the format requires, for messages: "an integer".
        var expectedType: String {
            switch self {
            case .seq, .cause, .step: "an integer"
            case .elapsed: "a number"
            case .changed: "a boolean"
            case .args: "an object"
            case .state: "any JSON value"
            case .type, .store, .action, .caseName, .from, .to, .source, .trace: "a string"
            case .stack: "an array of strings"
            case .machine: #"a machine {"initial": CASE, "transitions": {CASE: [CASE, ...]}}"#
            case .patch: #"an array of operations, each an object with a string "op" and a string "path""#
            }
        }
    }

    /// A set of `Key`s, as bits.
    struct KeySet: Equatable, Sendable {
        var bits: UInt32 = 0

        static let empty = KeySet()

        var isEmpty: Bool { bits == 0 }

        @inline(__always)
        func contains(_ key: Key) -> Bool { bits & (1 << key.rawValue) != 0 }

        @inline(__always)
        mutating func insert(_ key: Key) { bits |= 1 << key.rawValue }

        @inline(__always)
        mutating func remove(_ key: Key) { bits &= ~(1 << key.rawValue) }

        /// The keys in the set, in the recorder's order.
        var keys: [Key] { Key.allCases.filter(contains) }
    }

    package var type: Text?
    package var seq: Int?
    /// The number text of `elapsed`.
    package var elapsedRange: Range<Int>? {
        get { elapsedSpan.range }
        set { elapsedSpan = Span(newValue) }
    }
    package var store: Text?
    package var action: Text?
    /// `case`.
    package var caseName: Text?
    package var from: Text?
    package var to: Text?
    package var changed: Bool?
    /// The bytes of the `state` value, whatever its type.
    package var stateRange: Range<Int>? {
        get { stateSpan.range }
        set { stateSpan = Span(newValue) }
    }
    package var source: Text?
    package var cause: Int?
    /// The bytes of the `args` object.
    package var argsRange: Range<Int>? {
        get { argsSpan.range }
        set { argsSpan = Span(newValue) }
    }
    /// The bytes of the `machine` object (its shape is not checked by the scan).
    package var machineRange: Range<Int>? {
        get { machineSpan.range }
        set { machineSpan = Span(newValue) }
    }
    /// The bytes of the `patch` value, whatever its type.
    package var patchRange: Range<Int>? {
        get { patchSpan.range }
        set { patchSpan = Span(newValue) }
    }
    /// Whether the `patch` value is surely shaped as version 2 wants (`PatchShapeSink`), found
    /// by the scan that skipped it; false says only that `EventLineCheck` must look closer.
    var patchIsWellShaped = false
    private var elapsedSpan = Span(nil)
    private var stateSpan = Span(nil)
    private var argsSpan = Span(nil)
    private var machineSpan = Span(nil)
    private var patchSpan = Span(nil)
    /// The keys present with a JSON type other than the format's (a `seq` of `1.5` or `"1"`,
    /// a `store` of `null`, a `seq` too large for `Int`, a `stack` holding a number, a `machine`
    /// that is not an object). `patch` is never here: any value is kept for its version's rules.
    /// `step`, `trace` and `stack` are only in `present` or here: no reader needs their values.
    var wrongTypes = KeySet()
    /// The keys present with the right type: those that are not nil above.
    var present = KeySet()

    /// Whether the line has a numeric `elapsed`.
    var hasElapsed: Bool { elapsedRange != nil }

    /// Whether `key` is present with the right type.
    func has(_ key: Key) -> Bool {
        present.contains(key)
    }

    /// The text of a string member of `line`, the line these fields were scanned from.
    package static func string(_ text: Text, in line: UnsafeRawBufferPointer) -> String {
        guard text.hasEscapes else {
            return String(decoding: UnsafeRawBufferPointer(rebasing: line[text.range]), as: UTF8.self)
        }
        // The quotes around the body are part of the line; the body was checked by the scan.
        let quoted = UnsafeRawBufferPointer(rebasing: line[(text.range.lowerBound - 1)..<(text.range.upperBound + 1)])
        return (try? JSONParser.parse(quoted))?.stringValue ?? ""
    }

    /// Forgets `key`, for a later member with the same key.
    @inline(__always)
    mutating func clear(_ key: Key) {
        wrongTypes.remove(key)
        present.remove(key)
        switch key {
        case .type: type = nil
        case .seq: seq = nil
        case .elapsed: elapsedRange = nil
        case .store: store = nil
        case .action: action = nil
        case .caseName: caseName = nil
        case .from: from = nil
        case .to: to = nil
        case .changed: changed = nil
        case .state: stateRange = nil
        case .source: source = nil
        case .cause: cause = nil
        case .args: argsRange = nil
        case .step, .trace, .stack: break
        case .machine: machineRange = nil
        case .patch:
            patchRange = nil
            patchIsWellShaped = false
        }
    }

    @inline(__always)
    mutating func setText(_ text: Text, for key: Key) {
        switch key {
        case .type: type = text
        case .store: store = text
        case .action: action = text
        case .caseName: caseName = text
        case .from: from = text
        case .to: to = text
        case .source: source = text
        default: break
        }
    }
}
