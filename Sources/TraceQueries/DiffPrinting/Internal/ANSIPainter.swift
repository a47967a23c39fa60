import TraceReader

/// ANSI colours for the diff printers and `ValueChangeText`, applied only when `enabled`.
struct ANSIPainter {
    var enabled: Bool

    static let red: StaticString = "31"
    static let green: StaticString = "32"
    static let cyan: StaticString = "36"
    static let bold: StaticString = "1"
    static let dim: StaticString = "2"

    func red(_ text: String) -> String { wrap(text, Self.red) }
    func green(_ text: String) -> String { wrap(text, Self.green) }
    func dim(_ text: String) -> String { wrap(text, Self.dim) }

    /// Appends `prefix` and `text` (UTF-8) painted red (what `red(prefix + text)` gives), as bytes.
    func red<Text: Sequence<UInt8>>(_ text: Text, after prefix: StaticString = "", to output: inout [UInt8]) {
        paint(Self.red, to: &output) { $0.append(prefix, text) }
    }

    /// Appends `prefix` and `text` (UTF-8) painted green (what `green(prefix + text)` gives), as
    /// bytes.
    func green<Text: Sequence<UInt8>>(_ text: Text, after prefix: StaticString = "", to output: inout [UInt8]) {
        paint(Self.green, to: &output) { $0.append(prefix, text) }
    }

    /// Appends what `body` appends, in the colour or style `code` (`ESC [ code m` … `ESC [ 0 m`).
    func paint(_ code: StaticString, to output: inout [UInt8], _ body: (inout [UInt8]) -> Void) {
        open(code, to: &output)
        body(&output)
        close(to: &output)
    }

    /// Appends the start of the colour or style `code` (`ESC [ code m`).
    func open(_ code: StaticString, to output: inout [UInt8]) {
        guard enabled else { return }
        output.append(contentsOf: [0x1B, UInt8(ascii: "[")])
        output.append(contentsOf: UnsafeBufferPointer(start: code.utf8Start, count: code.utf8CodeUnitCount))
        output.append(UInt8(ascii: "m"))
    }

    /// Appends the end of a colour or style (`ESC [ 0 m`).
    func close(to output: inout [UInt8]) {
        guard enabled else { return }
        output.append(contentsOf: [0x1B, UInt8(ascii: "["), UInt8(ascii: "0"), UInt8(ascii: "m")])
    }

    private func wrap(_ text: String, _ code: StaticString) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

extension [UInt8] {
    /// Appends the bytes of `literal`: nothing for an empty one, a byte at a time for one or two
    /// (cheaper than an append of a buffer, on the per-change path of `inspector when`).
    mutating func append(_ literal: StaticString) {
        let count = literal.utf8CodeUnitCount
        if count <= 2 {
            for offset in 0..<count { append(literal.utf8Start[offset]) }
        } else {
            append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: count))
        }
    }

    /// Appends the bytes of `literal`, then the UTF-8 of `text`.
    mutating func append(_ literal: StaticString, _ text: String) {
        append(literal)
        append(contentsOf: text.utf8)
    }

    /// Appends the bytes of `literal`, then `bytes`.
    mutating func append<Bytes: Sequence<UInt8>>(_ literal: StaticString, _ bytes: Bytes) {
        append(literal)
        append(contentsOf: bytes)
    }
}
