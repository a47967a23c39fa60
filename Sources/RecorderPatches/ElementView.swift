import Recorder

/// The elements of an array, as memory, for the patch writer to compare them without encoding
/// the ones that did not change (`PatchWriter`): `count` elements `stride` bytes apart from
/// `base`, valid inside `ElementView.with` only.
///
/// Only arrays that the memo may remember are compared this way (no class instance at any
/// depth, see `EncodingMemo`): their elements are values, so an element whose data bytes
/// (`ElementMask`) are those of the element before is the same value, since every reference it
/// holds is to storage that is copied before any change. An element whose bytes differ is
/// encoded, old and new, and compared by its JSON.
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
        try elements.withUnsafeBufferPointer { buffer in
            try body(
                ElementView(base: UnsafeRawPointer(buffer.baseAddress), count: buffer.count, stride: stride, mask: mask)
                {
                    try encoder.appendAlone(buffer[$0])
                })
        }
    }

    /// Whether element `index` holds the same data as element `otherIndex` of `other`, an array
    /// of the same type.
    func same(_ index: Int, as other: ElementView, _ otherIndex: Int) -> Bool {
        guard let base, let otherBase = other.base else { return false }
        return ElementMask.same(base + index &* stride, otherBase + otherIndex &* stride, stride: stride, mask: mask)
    }
}
