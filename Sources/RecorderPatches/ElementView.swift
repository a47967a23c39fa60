import Recorder

/// The elements of an array, as memory, for the patch writer to compare them without encoding
/// the ones that did not change (`PatchWriter`): `count` elements `stride` bytes apart from
/// `base`, valid inside `ElementView.with` only.
///
/// Only arrays that the memo may remember are compared this way (no class instance at any
/// depth, see `EncodingMemo`): their elements are values, so an element whose data bytes
/// (`ElementMask`) are those of the element before is the same value, since every reference it
/// holds is to storage that is copied before any change. Runs of such elements are counted in
/// blocks of bytes (`ElementRuns`, the one place that reads the memory). An element whose data
/// differs is encoded, old and new, and compared by its JSON.
///
/// The element type comes from the encoder's `RecordedEncoding` (a conformance it has anyway),
/// not from a protocol of its own: a conformance's code is in every app that links Recorder, and
/// this is only for apps that record patches.
struct ElementView {
    let base: UnsafeRawPointer?
    let count: Int
    let stride: Int
    let mask: [UInt64]
    /// Appends the JSON of the element at an index (with tokens for its collections when the
    /// encoder is in shallow mode, see `ShallowState`).
    let encode: (Int) throws -> Void

    /// Calls `body` with a view of `value` when it is an array; returns false when it is not.
    static func with(
        _ value: any Encodable, encoder: StreamingEncoder, masks: ElementMask.Cache,
        _ body: (ElementView) throws -> Void
    ) throws -> Bool {
        guard let element = StreamingEncoder.elementType(of: value) else { return false }
        try open(element, value, encoder: encoder, masks: masks, body)
        return true
    }

    private static func open<Element: Encodable>(
        _: Element.Type, _ value: any Encodable, encoder: StreamingEncoder, masks: ElementMask.Cache,
        _ body: (ElementView) throws -> Void
    ) throws {
        let stride = MemoryLayout<Element>.stride
        let elements = value as! [Element]
        let mask = masks.words(of: Element.self, stride: stride, example: elements.first)
        precondition(mask.count == (stride + 7) / 8, "a mask of one word per eight bytes of the element")
        try elements.withUnsafeBufferPointer { buffer in
            try body(
                ElementView(base: UnsafeRawPointer(buffer.baseAddress), count: buffer.count, stride: stride, mask: mask)
                {
                    try encoder.appendAlone(buffer[$0])
                })
        }
    }

    /// How many elements of this array, from `index` on, hold the same data as those of `other`
    /// (an array of the same type) from `otherIndex` on, one after another, up to `count`.
    func sameRun(from index: Int, as other: ElementView, _ otherIndex: Int, count: Int) -> Int {
        guard count > 0, let base, let otherBase = other.base else { return 0 }
        precondition(index >= 0 && index + count <= self.count && otherIndex >= 0 && otherIndex + count <= other.count)
        return ElementRuns.leading(
            base + index &* stride, otherBase + otherIndex &* stride, count: count, stride: stride, mask: mask)
    }

    /// How many elements of this array, before `end` and going back, hold the same data as those
    /// of `other` (an array of the same type) before `otherEnd`, one after another, up to `count`.
    func sameRun(before end: Int, as other: ElementView, _ otherEnd: Int, count: Int) -> Int {
        guard count > 0, let base, let otherBase = other.base else { return 0 }
        precondition(end - count >= 0 && end <= self.count && otherEnd - count >= 0 && otherEnd <= other.count)
        return ElementRuns.trailing(
            base + (end - count) &* stride, otherBase + (otherEnd - count) &* stride, count: count, stride: stride,
            mask: mask)
    }
}
