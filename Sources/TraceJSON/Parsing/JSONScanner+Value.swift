@_spi(RewindInternals) internal import RewindSupport

/// The structure of JSON values (RFC 8259 §2–§5), walked without recursion.
///
/// An explicit stack (one bit per open container: object or array) replaces recursion, so no
/// input can overflow the call stack; nesting is limited to `JSONParser.maximumDepth` levels.
extension JSONScanner {
    /// Walks one complete value starting at `position` (after optional whitespace), reporting
    /// it to `sink`, and leaves `position` just past it.
    @inlinable
    public mutating func scanValue<Sink: JSONEventSink & ~Copyable>(into sink: inout Sink) throws(JSONParseError) {
        var kinds = JSONContainerKinds()
        var depth = 0
        // Whether the innermost open container is an object: read once per value, so kept here.
        var inObject = false
        var afterComma = false
        // Whether a member's name comes first (after an object's `{` or a member's `,`): read
        // here, in the one loop, rather than in a function called from two places.
        var nameNext = false
        nextValue: while true {
            skipWhitespace()
            if nameNext {
                nameNext = false
                guard position < count, base[position] == 0x22 else { throw notAName(afterComma: afterComma) }
                let start = position
                let hasEscapes = try scanString()
                sink.key(bytes, from: start &+ 1, to: position &- 1, hasEscapes: hasEscapes)
                skipWhitespace()
                guard position < count, base[position] == 0x3A else {  // :
                    throw unexpected(expecting: "':' after the member name", at: position)
                }
                position &+= 1
                afterComma = false
                skipWhitespace()
            }
            guard position < count else { throw endOfInput(expecting: "a value") }
            switch base[position] {
            case 0x7B:  // {
                guard depth < JSONParser.maximumDepth else { throw tooDeep() }
                position &+= 1
                sink.beginObject(at: position &- 1)
                skipWhitespace()
                if position < count && base[position] == 0x7D {  // }: empty
                    position &+= 1
                    sink.endObject(at: position &- 1)
                } else {
                    kinds.push(isObject: true, at: depth)
                    depth &+= 1
                    inObject = true
                    nameNext = true
                    afterComma = false
                    continue nextValue
                }
            case 0x5B:  // [
                guard depth < JSONParser.maximumDepth else { throw tooDeep() }
                position &+= 1
                sink.beginArray(at: position &- 1)
                skipWhitespace()
                if position < count && base[position] == 0x5D {  // ]: empty
                    position &+= 1
                    sink.endArray(at: position &- 1)
                } else {
                    kinds.push(isObject: false, at: depth)
                    depth &+= 1
                    inObject = false
                    afterComma = false
                    continue nextValue
                }
            case 0x22:  // "
                let start = position
                let hasEscapes = try scanString()
                sink.string(bytes, from: start &+ 1, to: position &- 1, hasEscapes: hasEscapes)
            case 0x2D, 0x30...0x39:  // - 0-9
                let start = position
                try scanNumber()
                sink.number(bytes, from: start, to: position)
            case 0x74:  // t
                let start = position
                try scanLiteral("true")
                sink.literal(.bool(true), at: start)
            case 0x66:  // f
                let start = position
                try scanLiteral("false")
                sink.literal(.bool(false), at: start)
            case 0x6E:  // n
                let start = position
                try scanLiteral("null")
                sink.literal(.null, at: start)
            default:
                throw notAValue(afterComma: afterComma)
            }
            // A value is complete: close containers until one continues with ','.
            while depth > 0 {
                skipWhitespace()
                guard position < count else { throw endOfContainer(inObject: inObject) }
                let byte = base[position]
                if byte == 0x2C {  // ,
                    position &+= 1
                    afterComma = true
                    nameNext = inObject
                    continue nextValue
                }
                if inObject {
                    guard byte == 0x7D else {
                        throw unexpected(expecting: "',' or '}' after an object member", at: position)
                    }
                    sink.endObject(at: position)
                } else {
                    guard byte == 0x5D else {
                        throw unexpected(expecting: "',' or ']' after an array element", at: position)
                    }
                    sink.endArray(at: position)
                }
                position &+= 1
                depth &-= 1
                inObject = kinds.pop(at: depth)
            }
            return
        }
    }

    // The errors, out of line: the walk is one function per sink, and its hot paths keep more
    // in registers when the messages are built elsewhere.

    @usableFromInline @inline(never)
    func tooDeep() -> JSONParseError {
        error("nesting deeper than \(JSONParser.maximumDepth) levels is not supported", at: position)
    }

    /// No member name starts at `position`, after an object's `{` or (`afterComma`) a `,`.
    @usableFromInline @inline(never)
    func notAName(afterComma: Bool) -> JSONParseError {
        guard afterComma else { return unexpected(expecting: "a member name in double quotes or '}'", at: position) }
        if position < count && base[position] == 0x7D {  // }
            return unexpected(
                expecting: "a member name after ','", at: position, prefix: "trailing commas are not allowed: ")
        }
        return unexpected(expecting: "a member name in double quotes", at: position)
    }

    /// No value starts at `position`.
    @usableFromInline @inline(never)
    func notAValue(afterComma: Bool) -> JSONParseError {
        if afterComma && base[position] == 0x5D {  // ]
            return unexpected(
                expecting: "a value after ','", at: position, prefix: "trailing commas are not allowed: ")
        }
        return unexpected(expecting: "a value", at: position, valueStart: true)
    }

    /// The input ends inside a container, after a value.
    @usableFromInline @inline(never)
    func endOfContainer(inObject: Bool) -> JSONParseError {
        endOfInput(
            expecting: inObject ? "',' or '}' after an object member" : "',' or ']' after an array element")
    }

    /// Walks a whole document: exactly one value with optional whitespace around it.
    /// A byte order mark at the start is rejected (RFC 8259 §8.1: a parser MAY ignore it; we
    /// refuse it so that traces stay plain UTF-8 that other tools read the same way).
    @inlinable
    public mutating func scanDocument<Sink: JSONEventSink & ~Copyable>(into sink: inout Sink) throws(JSONParseError) {
        if count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF {
            throw error(
                "the input starts with a byte order mark (U+FEFF), which JSON does not allow; "
                    + "save it as UTF-8 without a BOM", at: 0)
        }
        try scanValue(into: &sink)
        skipWhitespace()
        if position < count {
            throw unexpected(expecting: "the end of input after the JSON value", at: position)
        }
    }
}
