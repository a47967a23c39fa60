/// What `JSONScanner.scanValue(into:)` reports while it walks one JSON value, in document order.
///
/// The parser's sink builds `JSONValue`s; the syntax checker's sink does nothing, so checking
/// and parsing share one grammar. Byte ranges are offsets into `base`; string ranges exclude
/// the quotes and are already checked (valid UTF-8, valid escapes).
protocol JSONEventSink: ~Copyable {
    mutating func beginArray()
    mutating func endArray()
    mutating func beginObject()
    mutating func endObject()
    /// An object member's name; its value follows.
    mutating func key(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, hasEscapes: Bool)
    mutating func string(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, hasEscapes: Bool)
    mutating func number(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int)
    /// `true`, `false` or `null`.
    mutating func literal(_ value: JSONValue)
}

/// A sink that keeps nothing: the checker's.
struct JSONDiscardingSink: JSONEventSink {
    @inline(__always) mutating func beginArray() {}
    @inline(__always) mutating func endArray() {}
    @inline(__always) mutating func beginObject() {}
    @inline(__always) mutating func endObject() {}
    @inline(__always) mutating func key(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, hasEscapes: Bool) {}
    @inline(__always) mutating func string(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, hasEscapes: Bool)
    {}
    @inline(__always) mutating func number(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) {}
    @inline(__always) mutating func literal(_ value: JSONValue) {}
}
