// The encoder behind `StateEncoder` and the recorder: it writes JSON bytes as `encode(to:)` calls
// arrive, straight into one reused `JSONOutput`, instead of building a tree of boxes as
// Foundation's `JSONEncoder` does.
//
// This class owns the memory (through an `EncodingContextStorage`, freed when the class goes);
// the `Encoder` that conformances see is its `EncodingContext` (see there for how containers,
// frames, keys and redaction work).

// @unchecked Sendable: used by one thread at a time, under the recorder's lock (or owned by a
// `StateEncoder`, which is not Sendable).
final class StreamingEncoder: @unchecked Sendable {
    private let storage: EncodingContextStorage
    let context: EncodingContext
    let output: JSONOutput

    /// - Parameter remembers: see `EncodingMemo`; the recorder sets it, since it encodes one
    ///   state after another that mostly share their parts.
    init(redaction: Redaction, remembers: Bool = false) {
        storage = EncodingContextStorage(redaction: redaction, remembers: remembers)
        context = storage.context
        output = context.output
    }

    /// Forgets any half-written value (after an `encode(to:)` that threw).
    func reset(to mark: Int) {
        context.reset(to: mark)
    }

    /// Appends the JSON text of `value` to the output.
    func appendValue<T: Encodable>(_ value: T) throws {
        let savedDepth = context.valueDepth
        defer { context.valueDepth = savedDepth }
        context.beginTopLevelValue()
        try context.encodeValue(value)
        context.closeFrames(downTo: 0)
    }

    /// Whether the value of `key` is written as `"<redacted>"`.
    func isRedacted(_ key: String) -> Bool {
        context.isRedacted(key)
    }
}
