import Recorder

/// What the patch writer reads of a state encoded for a patch.
extension ShallowState {
    /// `value` encoded for a patch; the encoder's output is left as it was.
    static func of<T: Encodable>(_ value: T, encoder: StreamingEncoder) throws -> ShallowState {
        let (text, parts) = try encoder.shallowText { try encoder.appendValue(value) }
        return ShallowState(text: text, parts: parts)
    }

    /// The part that the token at `start` of `text` names, among `parts`.
    static func part(at start: Int, of text: [UInt8], in parts: [Part]) -> Part? {
        var (word, type): (UInt, UInt) = (0, 0)
        for index in 0..<32 {
            let byte = text[start + 1 + index]
            let digit = UInt(byte < 0x3A ? byte - 0x30 : byte - 0x57)
            if index < 16 { word = word << 4 | digit } else { type = type << 4 | digit }
        }
        return parts.last { $0.word == word && $0.type == type }
    }
}
