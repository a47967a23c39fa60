@_spi(RewindInternals) public import RewindSupport

/// What `JSONScanner.scanValue(into:)` reports while it walks one JSON value, in document order.
///
/// The one walker of the project's JSON, and its consumers: the parser's sink builds
/// `JSONValue`s, the tape decoder's its tape, `JSONText`'s its index, `PatchShapeSink` a patch's
/// shape, the trace reader's `EventFieldsSink` an event line's members and its header reading the
/// machines; the syntax checker's sink does nothing. So a change to the grammar is made once.
/// Byte ranges are offsets into `bytes`, the whole input; string ranges exclude the quotes and are already checked
/// (valid UTF-8, valid escapes).
///
/// Public as `@_spi(RewindInternals)`, with the walker `@inlinable`, so that a sink in another
/// module gets a walk specialized for it (a `package` generic is not specialized across modules).
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
    mutating func key(_ bytes: ByteView, from start: Int, to end: Int, hasEscapes: Bool)
    mutating func string(_ bytes: ByteView, from start: Int, to end: Int, hasEscapes: Bool)
    mutating func number(_ bytes: ByteView, from start: Int, to end: Int)
    /// `true`, `false` or `null`, whose first byte is at `offset`.
    mutating func literal(_ value: JSONValue, at offset: Int)
}

/// A sink that keeps nothing: the checker's.
struct JSONDiscardingSink: JSONEventSink {
    @inline(__always) mutating func beginArray(at offset: Int) {}
    @inline(__always) mutating func endArray(at offset: Int) {}
    @inline(__always) mutating func beginObject(at offset: Int) {}
    @inline(__always) mutating func endObject(at offset: Int) {}
    @inline(__always) mutating func key(_ bytes: ByteView, from start: Int, to end: Int, hasEscapes: Bool) {}
    @inline(__always) mutating func string(_ bytes: ByteView, from start: Int, to end: Int, hasEscapes: Bool) {}
    @inline(__always) mutating func number(_ bytes: ByteView, from start: Int, to end: Int) {}
    @inline(__always) mutating func literal(_ value: JSONValue, at offset: Int) {}
}
