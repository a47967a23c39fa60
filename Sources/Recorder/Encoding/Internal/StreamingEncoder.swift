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

    /// `value` encoded for a patch (`ShallowState`); the output is left as it was.
    func shallowState<T: Encodable>(of value: T) throws -> ShallowState {
        let mark = output.count
        context.state.pointee.shallow = true
        defer {
            context.state.pointee.shallow = false
            context.state.pointee.parts = []
            output.count = mark
        }
        do {
            try appendValue(value)
        } catch {
            reset(to: mark)
            throw error
        }
        return ShallowState(text: Array(output.bytes(from: mark)), parts: context.state.pointee.parts)
    }

    /// Appends the JSON Patch from `old` to `new` (`PatchWriter`) and returns its size; nil, with
    /// nothing appended, when it would take more than `limit` bytes or a part failed to encode.
    func appendPatch(from old: ShallowState, to new: ShallowState, limit: Int, masks: ElementMask.Cache) -> Int? {
        let mark = output.count
        do {
            return try PatchWriter.append(from: old, to: new, limit: limit, masks: masks, context: context)
        } catch {
            reset(to: mark)
            context.state.pointee.shallow = false
            context.state.pointee.parts = []
            return nil
        }
    }

    /// Appends the JSON of a state encoded for patches: the state's whole JSON.
    func appendWhole(_ state: ShallowState) throws {
        let mark = output.count
        do {
            try PatchWriter.appendWhole(state, context: context)
        } catch {
            reset(to: mark)
            throw error
        }
    }

    /// Whether the value of `key` is written as `"<redacted>"`.
    func isRedacted(_ key: String) -> Bool {
        context.isRedacted(key)
    }
}
