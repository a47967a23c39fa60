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
        text += line
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
