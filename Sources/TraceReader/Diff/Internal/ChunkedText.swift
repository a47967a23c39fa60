/// Lines of text collected for a printer: kept whole, or handed to a sink in pieces of about
/// 64 KB as they come, so that printing a diff of any size takes memory for one piece.
struct ChunkedText {
    private(set) var text = ""
    private let sink: ((UnsafeRawBufferPointer) -> Void)?

    init(sink: ((UnsafeRawBufferPointer) -> Void)? = nil) {
        self.sink = sink
    }

    /// Appends `line` and a line end.
    mutating func appendLine(_ line: String) {
        append(line)
        endLine()
    }

    /// Appends `part` of a line.
    mutating func append(_ part: String) {
        text += part
    }

    /// Appends `count` spaces.
    mutating func appendSpaces(_ count: Int) {
        let spaces = "                                "  // 32
        var left = count
        while left > 0 {
            let run = min(left, 32)
            text += spaces.utf8.count == run ? spaces : String(spaces.prefix(run))
            left -= run
        }
    }

    /// Ends the line.
    mutating func endLine() {
        text += "\n"
        if sink != nil && text.utf8.count >= 1 << 16 { flush() }
    }

    /// Hands what is left to the sink.
    mutating func flush() {
        guard let sink, !text.isEmpty else { return }
        text.withUTF8 { sink(UnsafeRawBufferPointer($0)) }
        text = ""
    }
}
