@_spi(RewindInternals) package import RewindSupport

/// Whether a version 2 `patch` is shaped as the format says (an array of objects, each with a
/// string `op` and a string `path`), found in one syntax scan with nothing built: the check the
/// reader's index makes of every patched line, where parsing the patch into a `JSONValue` tree
/// cost most of the time of opening a version 2 trace. It only ever says "surely well shaped";
/// anything else, including what it does not follow (an escaped member name), goes to
/// `EventLineCheck.patchOperations`, which parses the patch and says what is wrong.
package struct PatchShapeSink: JSONEventSink {
    /// False once the patch is known not to be surely well shaped.
    package private(set) var wellShaped = true
    /// How many arrays and objects are open: 1 inside the patch, 2 inside an operation.
    private var depth = 0
    /// The member of an operation whose value comes next: `op`, `path`, or another (nil).
    private var member: Member?
    /// Whether the operation's latest `op` and `path` (the last of a repeated name counts) are strings.
    private var opIsString = false
    private var pathIsString = false

    private enum Member { case op, path }

    package init() {}

    /// Whether `bytes`, one JSON value, are surely a well-shaped patch.
    package static func isWellShaped(_ bytes: ByteView) -> Bool {
        var scanner = JSONScanner(bytes)
        var sink = PatchShapeSink()
        do {
            try scanner.scanDocument(into: &sink)
        } catch {
            return false
        }
        return sink.wellShaped && sink.depth == 0
    }

    /// Moves past the JSON value at `offset` of `line`, checked as strictly as
    /// `JSONSyntax.skipValue` checks it, and says in the same scan whether it is surely a
    /// well-shaped patch: the event scanners read a `patch` this way, so that the index of a
    /// version 2 trace does not scan every patch a second time for its shape.
    ///
    /// - Returns: the offset just past the value, and whether `isWellShaped` would say yes of it.
    /// - Throws: `JSONParseError` when no valid JSON value starts at `offset`.
    @inline(__always)
    package static func skipValue(
        in line: ByteView, at offset: Int
    ) throws(JSONParseError) -> (end: Int, wellShaped: Bool) {
        var scanner = JSONScanner(line, position: offset)
        var sink = PatchShapeSink()
        try scanner.scanValue(into: &sink)
        return (scanner.position, sink.wellShaped && sink.depth == 0)
    }

    /// A value that is not a string starts (or is) at the current depth.
    @inline(__always)
    private mutating func otherValue() {
        switch depth {
        case 0, 1: wellShaped = false  // the patch, or one of its operations, is not what it must be
        case 2: setMember(isString: false)
        default: break
        }
    }

    @inline(__always)
    private mutating func setMember(isString: Bool) {
        switch member {
        case .op: opIsString = isString
        case .path: pathIsString = isString
        case nil: break
        }
        member = nil
    }

    package mutating func beginArray(at offset: Int) {
        if depth != 0 { otherValue() }
        depth += 1
    }

    package mutating func endArray(at offset: Int) {
        depth -= 1
    }

    package mutating func beginObject(at offset: Int) {
        if depth == 1 {
            opIsString = false
            pathIsString = false
        } else {
            otherValue()
        }
        depth += 1
    }

    package mutating func endObject(at offset: Int) {
        depth -= 1
        if depth == 1 && !(opIsString && pathIsString) { wellShaped = false }
    }

    package mutating func key(_ bytes: ByteView, from start: Int, to end: Int, hasEscapes: Bool) {
        guard depth == 2 else { return }
        if hasEscapes { wellShaped = false }
        let name = bytes[start..<end]
        if name.equals("op") {
            member = .op
        } else if name.equals("path") {
            member = .path
        } else {
            member = nil
        }
    }

    package mutating func string(_ bytes: ByteView, from start: Int, to end: Int, hasEscapes: Bool) {
        if depth == 2 { setMember(isString: true) } else if depth < 2 { wellShaped = false }
    }

    package mutating func number(_ bytes: ByteView, from start: Int, to end: Int) {
        otherValue()
    }

    package mutating func literal(_ value: JSONValue, at offset: Int) {
        otherValue()
    }
}
