/// The parser's `JSONEventSink`: builds `JSONValue`s bottom-up on explicit stacks.
///
/// Finished values wait on a value stack; names of open objects wait on a name stack. When a
/// container closes, its elements are moved (not copied) into a new array, so building costs no
/// reference counting per element. The stacks are raw memory: call `release()` exactly once.
struct JSONTreeBuilder: JSONEventSink {
    private var values: UnsafeMutablePointer<JSONValue>
    private var valueCount = 0
    private var valueCapacity: Int
    private var names: UnsafeMutablePointer<String>
    private var nameCount = 0
    private var nameCapacity: Int
    /// For each open container, the value-stack height where its elements start.
    private var frames: [Int] = []
    private var scratch: [UInt8] = []

    init() {
        valueCapacity = 64
        values = .allocate(capacity: valueCapacity)
        nameCapacity = 32
        names = .allocate(capacity: nameCapacity)
        frames.reserveCapacity(16)
    }

    /// Frees the stacks and whatever is left on them.
    mutating func release() {
        values.deinitialize(count: valueCount)
        values.deallocate()
        names.deinitialize(count: nameCount)
        names.deallocate()
        valueCount = 0
        nameCount = 0
    }

    /// The one finished value, moved out.
    mutating func takeResult() -> JSONValue {
        precondition(valueCount == 1 && frames.isEmpty, "JSONTreeBuilder: no single finished value")
        valueCount = 0
        return values.move()
    }

    @inline(__always)
    private mutating func push(_ value: JSONValue) {
        if valueCount == valueCapacity {
            let larger = UnsafeMutablePointer<JSONValue>.allocate(capacity: valueCapacity * 2)
            larger.moveInitialize(from: values, count: valueCount)
            values.deallocate()
            values = larger
            valueCapacity *= 2
        }
        (values + valueCount).initialize(to: value)
        valueCount &+= 1
    }

    /// Moves the top `count` values into an array.
    @inline(__always)
    private mutating func popValues(_ count: Int) -> [JSONValue] {
        guard count > 0 else { return [] }
        valueCount &-= count
        let source = values + valueCount
        return [JSONValue](unsafeUninitializedCapacity: count) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: source, count: count)
            initialized = count
        }
    }

    @inline(__always)
    mutating func beginArray() {
        frames.append(valueCount)
    }

    @inline(__always)
    mutating func endArray() {
        let start = frames.removeLast()
        let elements = popValues(valueCount &- start)
        push(.array(elements))
    }

    @inline(__always)
    mutating func beginObject() {
        frames.append(valueCount)
    }

    @inline(__always)
    mutating func endObject() {
        let start = frames.removeLast()
        let memberCount = valueCount &- start
        let memberValues = popValues(memberCount)
        var memberNames: [String] = []
        if memberCount > 0 {
            nameCount &-= memberCount
            let source = names + nameCount
            memberNames = [String](unsafeUninitializedCapacity: memberCount) { buffer, initialized in
                buffer.baseAddress!.moveInitialize(from: source, count: memberCount)
                initialized = memberCount
            }
        }
        push(.object(JSONObject(uncheckedKeys: memberNames, values: memberValues)))
    }

    @inline(__always)
    mutating func key(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, hasEscapes: Bool) {
        let name = JSONStringDecoding.makeString(base, from: start, to: end, hasEscapes: hasEscapes, scratch: &scratch)
        if nameCount == nameCapacity {
            let larger = UnsafeMutablePointer<String>.allocate(capacity: nameCapacity * 2)
            larger.moveInitialize(from: names, count: nameCount)
            names.deallocate()
            names = larger
            nameCapacity *= 2
        }
        (names + nameCount).initialize(to: name)
        nameCount &+= 1
    }

    @inline(__always)
    mutating func string(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, hasEscapes: Bool) {
        push(
            .string(
                JSONStringDecoding.makeString(base, from: start, to: end, hasEscapes: hasEscapes, scratch: &scratch)))
    }

    @inline(__always)
    mutating func number(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) {
        push(.number(String(decoding: UnsafeBufferPointer(start: base + start, count: end &- start), as: UTF8.self)))
    }

    @inline(__always)
    mutating func literal(_ value: JSONValue) {
        push(value)
    }
}
