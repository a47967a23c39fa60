// The encoder behind `StateEncoder` and the recorder: it writes JSON bytes as `encode(to:)` calls
// arrive, straight into one reused `JSONOutput`, instead of building a tree of boxes as
// Foundation's `JSONEncoder` does.
//
// This class owns the memory (through an `EncodingContextStorage`, freed when the class goes);
// the `Encoder` that conformances see is its `EncodingContext` (see there for how containers,
// frames, keys and redaction work).

// @unchecked Sendable: used by one thread at a time, under the recorder's lock (or owned by a
// `StateEncoder`, which is not Sendable).
package final class StreamingEncoder: @unchecked Sendable {
    private let storage: EncodingContextStorage
    let context: EncodingContext
    package let output: JSONOutput

    /// - Parameter remembers: see `EncodingMemo`; the recorder sets it, since it encodes one
    ///   state after another that mostly share their parts.
    init(redaction: Redaction, remembers: Bool = false) {
        storage = EncodingContextStorage(redaction: redaction, remembers: remembers)
        context = storage.context
        output = context.output
    }

    /// Forgets any half-written value (after an `encode(to:)` that threw).
    package func reset(to mark: Int) {
        context.reset(to: mark)
    }

    /// Appends the JSON text of `value` to the output.
    package func appendValue<T: Encodable>(_ value: T) throws {
        let savedDepth = context.valueDepth
        defer { context.valueDepth = savedDepth }
        context.beginTopLevelValue()
        try context.encodeValue(value)
        try context.checkNesting()
        context.closeFrames(downTo: 0)
    }

    // MARK: For patches (the RecorderPatches module, version 2 traces)

    /// What `encode` appends in shallow mode (`ShallowState`): its text, with tokens for the
    /// collections in `parts`; the output is left as it was.
    package func shallowText(_ encode: () throws -> Void) throws -> (text: [UInt8], parts: [ShallowState.Part]) {
        let mark = output.count
        let state = context.state
        let wasShallow = state.pointee.shallow
        state.pointee.shallow = true
        defer {
            state.pointee.shallow = wasShallow
            state.pointee.parts.removeAll(keepingCapacity: true)
            output.count = mark
        }
        do {
            try encode()
        } catch {
            reset(to: mark)
            throw error
        }
        return (Array(output.bytes(from: mark)), state.pointee.parts)
    }

    /// Appends the JSON of `value` as a value of its own, inside a patch being written.
    package func appendAlone<T: Encodable>(_ value: T) throws {
        try context.appendAlone(value)
    }

    /// For an array, its element type; nil for any other value.
    package static func elementType(of value: any Encodable) -> (any Encodable.Type)? {
        (type(of: value) as? any RecordedEncoding.Type)?.encodableElementType
    }

    /// Whether the value of `key` is written as `"<redacted>"`.
    func isRedacted(_ key: String) -> Bool {
        context.isRedacted(key)
    }
}
