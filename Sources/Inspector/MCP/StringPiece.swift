import TraceJSON

/// A piece of a string too long for one MCP answer: the `state` tool gives a long string a
/// piece at a time, from a byte of its UTF-8 (`offset`), at most `length` bytes, never cut
/// inside a character's bytes (an offset inside one starts at the next character), and small
/// enough that its JSON, escapes included, fits the answer's budget.
struct StringPiece {
    /// The piece.
    let text: String
    /// Where it starts and ends in the string's UTF-8.
    let start: Int
    let end: Int
    /// The string's size in bytes of UTF-8.
    let total: Int

    /// The piece of `string` from byte `offset`, at most `length` bytes, whose quoted JSON is at
    /// most `budget` bytes.
    init(_ string: String, offset: Int, length: Int, budget: Int) {
        let bytes = Array(string.utf8)
        total = bytes.count
        var start = min(offset, bytes.count)
        while start < bytes.count && bytes[start] & 0xC0 == 0x80 { start += 1 }
        var length = max(1, length)
        var piece = ""
        var end = start
        while true {
            end = min(start + length, bytes.count)
            while end > start && end < bytes.count && bytes[end] & 0xC0 == 0x80 { end -= 1 }
            piece = String(decoding: bytes[start..<end], as: UTF8.self)
            // Escapes (a control character is six bytes) can make the JSON larger than the piece.
            if AnswerBounds.size(.string(piece)) <= budget || length <= 8 { break }
            length /= 2
        }
        self.text = piece
        self.start = start
        self.end = end
    }

    /// Where the next piece starts, when the string goes on.
    var nextOffset: Int? { end < total ? end : nil }

    /// `{"offset":…,"length":…,"bytes":…}`: which bytes of the string the piece is.
    var json: JSONValue {
        .object([
            "offset": AnswerBounds.int(start), "length": AnswerBounds.int(end - start),
            "bytes": AnswerBounds.int(total),
        ])
    }
}
