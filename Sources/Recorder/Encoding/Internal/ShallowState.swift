/// A state encoded for a patch: its JSON, except that each collection that can be told unchanged
/// by its storage (an array, dictionary or set that the memo may remember: no class instance at
/// any depth, see `EncodingMemo`) is a token naming that collection instead of its JSON.
///
/// Finding what an action changed then costs the encoding of what is not in such a collection
/// (usually a few fields) and a comparison of the collections whose storage changed, not an
/// encoding of the whole state (`PatchWriter`). The recorder keeps each store's last one, which
/// keeps its collections alive, so that a storage address cannot be reused while it is compared.
///
/// A token is the byte 0x01, then the collection's storage word and its type, in hexadecimal:
/// two tokens are the same bytes exactly when they name the same storage of the same type. The
/// token is neither a quote nor a bracket, so `StableOrder.skipValue` steps over it as over a
/// number.
package struct ShallowState {
    /// One collection named by a token.
    package struct Part {
        package let value: any Encodable
        package let word: UInt
        package let type: UInt
    }

    package var text: [UInt8]
    package var parts: [Part]

    package init(text: [UInt8], parts: [Part]) {
        self.text = text
        self.parts = parts
    }

    /// The first byte of a token.
    package static var tokenStart: UInt8 { 0x01 }
    package static var tokenLength: Int { 33 }

    /// Appends the token of `part` to `output`.
    static func appendToken(of part: Part, to output: JSONOutput) {
        output.append(tokenStart)
        for index in 0..<32 {
            let word = index < 16 ? part.word : part.type
            let digit = UInt8(truncatingIfNeeded: (word >> UInt(60 - 4 * (index % 16))) & 0xF)
            output.append(digit < 10 ? 0x30 + digit : 0x57 + digit)
        }
    }
}
