@_spi(RewindInternals) internal import RewindSupport

/// The parser's `JSONEventSink`: builds `JSONValue`s bottom-up on explicit stacks.
///
/// Finished values wait on a value stack; names of open objects wait on a name stack. When a
/// container closes, its elements are moved (not copied) into a new array, so building costs no
/// reference counting per element. The stacks are `JSONBuffer`s: whatever is left on them (after
/// an error) is freed with the builder.
struct JSONTreeBuilder: JSONEventSink, ~Copyable {
    private var values = JSONBuffer<JSONValue>(capacity: 64)
    private var names = JSONBuffer<String>(capacity: 32)
    /// For each open container, the value-stack height where its elements start.
    private var frames: [Int] = []
    private var scratch: [UInt8] = []

    init() {
        frames.reserveCapacity(16)
    }

    /// The one finished value, moved out.
    mutating func takeResult() -> JSONValue {
        precondition(values.count == 1 && frames.isEmpty, "JSONTreeBuilder: no single finished value")
        return values.removeLast(1)[0]
    }

    @inline(__always)
    mutating func beginArray(at offset: Int) {
        frames.append(values.count)
    }

    @inline(__always)
    mutating func endArray(at offset: Int) {
        let start = frames.removeLast()
        let elements = values.removeLast(values.count &- start)
        values.append(.array(elements))
    }

    @inline(__always)
    mutating func beginObject(at offset: Int) {
        frames.append(values.count)
    }

    @inline(__always)
    mutating func endObject(at offset: Int) {
        let start = frames.removeLast()
        let memberCount = values.count &- start
        let memberValues = values.removeLast(memberCount)
        let memberNames = names.removeLast(memberCount)
        values.append(.object(JSONObject(uncheckedKeys: memberNames, values: memberValues)))
    }

    @inline(__always)
    mutating func key(_ bytes: ByteView, from start: Int, to end: Int, hasEscapes: Bool) {
        names.append(
            JSONStringDecoding.parsedString(bytes, from: start, to: end, hasEscapes: hasEscapes, scratch: &scratch))
    }

    @inline(__always)
    mutating func string(_ bytes: ByteView, from start: Int, to end: Int, hasEscapes: Bool) {
        values.append(
            .string(
                JSONStringDecoding.parsedString(bytes, from: start, to: end, hasEscapes: hasEscapes, scratch: &scratch))
        )
    }

    @inline(__always)
    mutating func number(_ bytes: ByteView, from start: Int, to end: Int) {
        values.append(.number(bytes[start..<end].string))
    }

    @inline(__always)
    mutating func literal(_ value: JSONValue, at offset: Int) {
        values.append(value)
    }
}
