/// Lines of text collected for a printer, as UTF-8: kept whole, or handed to a sink in pieces of
/// about 64 KB as they come, so that printing a diff of any size takes memory for one piece.
struct ChunkedText {
    private var bytes: [UInt8] = []
    private let sink: ((UnsafeRawBufferPointer) -> Void)?

    init(sink: ((UnsafeRawBufferPointer) -> Void)? = nil) {
        self.sink = sink
    }

    /// What was collected (and not handed to the sink).
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends `line` and a line end.
    mutating func appendLine(_ line: String) {
        append(line)
        endLine()
    }

    /// Appends `part` of a line.
    mutating func append(_ part: String) {
        var part = part
        part.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends `part` of a line, as UTF-8 bytes.
    mutating func append(utf8 part: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: part)
    }

    /// Appends `count` spaces.
    mutating func appendSpaces(_ count: Int) {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
    }

    /// Appends the decimal digits of `value` (not negative).
    mutating func appendDecimal(_ value: Int) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 24 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var position = buffer.count
            var rest = value
            repeat {
                position -= 1
                buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0 && position > 0
            bytes.append(contentsOf: buffer[position...])
        }
    }

    /// Ends the line.
    mutating func endLine() {
        bytes.append(UInt8(ascii: "\n"))
        if sink != nil && bytes.count >= 1 << 16 { flush() }
    }

    /// Hands what is left to the sink.
    mutating func flush() {
        guard let sink, !bytes.isEmpty else { return }
        bytes.withUnsafeBytes(sink)
        bytes.removeAll(keepingCapacity: true)
    }
}
