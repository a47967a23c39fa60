@_spi(RewindInternals) package import RewindSupport
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
    package static func scan(_ line: ByteView) throws(JSONParseError) -> EventFields {
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
    static func scan(_ line: ByteView, into fields: inout EventFields) throws(JSONParseError) {
        guard line.count < Int(UInt32.max) else {
            throw JSONParseError(line: 1, column: 1, offset: 0, message: "the line is longer than 4 GiB")
        }
        var fast = Cursor(line)
        if fast.scanRecorderLayout(into: &fields) { return }
        fields = try scanGenerally(line)
    }

    /// The fields of `line` when it has the recorder's layout; nil otherwise (for tests).
    static func scanRecorderLayout(_ line: ByteView) -> EventFields? {
        guard line.count < Int(UInt32.max) else { return nil }
        var cursor = Cursor(line)
        var fields = EventFields()
        return cursor.scanRecorderLayout(into: &fields) ? fields : nil
    }

    /// Scans `line` member by member, whatever their order and spacing: the path for lines that
    /// do not have the recorder's layout (`RecorderLayout.swift`), and for the tests that compare
    /// the two. The line is walked by the one JSON walker (`JSONScanner.scanDocument`), so its
    /// errors are the parser's, and `EventFieldsSink` keeps what the format defines.
    static func scanGenerally(_ line: ByteView) throws(JSONParseError) -> EventFields {
        var scanner = JSONScanner(line)
        var sink = EventFieldsSink(line)
        do {
            try scanner.scanDocument(into: &sink)
        } catch {
            // Unless the value ended and something other than whitespace follows it, the walker's
            // error is the line's.
            guard sink.isComplete && sink.notAnObject == nil else { throw error }
            throw JSONParseError(
                line: 1, column: error.offset + 1, offset: error.offset,
                message: "expected the end of the line after the event's closing '}', found "
                    + "\(JSONScanner(line).describe(at: error.offset)) (a line holds exactly one JSON object)")
        }
        guard let kind = sink.notAnObject else { return sink.fields }
        let start = JSONWhitespace.skip(line, from: 0, to: line.count)
        throw JSONParseError(
            line: 1, column: start + 1, offset: start,
            message: "the line is \(kind), not a JSON object; every line after the header is one event object")
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

}
