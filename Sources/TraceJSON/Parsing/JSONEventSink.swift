/// What `JSONScanner.scanValue(into:)` reports while it walks one JSON value, in document order.
///
/// The parser's sink builds `JSONValue`s, the tape decoder's its tape, `JSONText`'s its index;
/// the syntax checker's sink does nothing, so checking and parsing share one grammar. Byte ranges are offsets into `base`; string ranges exclude
/// the quotes and are already checked (valid UTF-8, valid escapes).
///
/// Public as `@_spi(RewindInternals)`, with the walker `@inlinable`, so that a sink of another
/// module (the trace reader's header sink) gets the walker specialized for it: a `package`
/// generic is not specialized across modules, and a walk through a protocol's witnesses costs
/// a call per event.
@_spi(RewindInternals) public protocol JSONEventSink: ~Copyable {
    /// An array starts; its `[` is at `offset`.
    mutating func beginArray(at offset: Int)
    /// The innermost array ends; its `]` is at `offset`.
    mutating func endArray(at offset: Int)
    /// An object starts; its `{` is at `offset`.
    mutating func beginObject(at offset: Int)
    /// The innermost object ends; its `}` is at `offset`.
    mutating func endObject(at offset: Int)
    /// An object member's name; its value follows.
    mutating func key(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, hasEscapes: Bool)
    mutating func string(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, hasEscapes: Bool)
    mutating func number(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int)
    /// `true`, `false` or `null`, whose first byte is at `offset`.
    mutating func literal(_ value: JSONValue, at offset: Int)
}

/// A sink that keeps nothing: the checker's.
struct JSONDiscardingSink: JSONEventSink {
    @inline(__always) mutating func beginArray(at offset: Int) {}
    @inline(__always) mutating func endArray(at offset: Int) {}
    @inline(__always) mutating func beginObject(at offset: Int) {}
    @inline(__always) mutating func endObject(at offset: Int) {}
    @inline(__always) mutating func key(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, hasEscapes: Bool) {}
    @inline(__always) mutating func string(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, hasEscapes: Bool)
    {}
    @inline(__always) mutating func number(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) {}
    @inline(__always) mutating func literal(_ value: JSONValue, at offset: Int) {}
}
