import Recorder

/// Writes JSON tokens with a printing's layout: the commas, the line breaks and indentation of
/// `pretty`, the spaces of `ValueText`'s one-line form. The one place that decides how printed
/// JSON looks; walks over a `JSONValue` (`write(_:)`) or over a `JSONText` feed it.
///
/// It owns a `JSONOutputStorage` (the recorder's byte writer), which frees it when it goes. With a
/// `sink`, full chunks of 64 KB are handed over as they are written and the buffer is reused,
/// so printing a state of any size takes memory for one chunk; without one, `text` is the whole.
struct JSONFormatter: ~Copyable {
    /// Where the whitespace goes.
    enum Layout {
        /// No whitespace: `{"a":[1,2]}`.
        case compact
        /// One member or element a line, each level indented by `indent` spaces, `": "` after names.
        case pretty(indent: Int)
        /// One line, a space after each `,` and `:`: `{"a": [1, 2]}`.
        case line
    }

    private let storage = JSONOutputStorage(capacity: 256)
    private var output: JSONOutput { storage.output }
    private let layout: Layout
    private let terminalSafe: Bool
    private let sink: ((UnsafeRawBufferPointer) -> Void)?
    /// Bytes past which the writing stops (see `isSpent`), for `ValueText`.
    private let budget: Int
    private var depth = 0
    /// Whether the innermost open container has no member or element yet.
    private var isFirst = true
    /// Whether a name was just written, so that its value needs no separator.
    private var afterName = false
    /// Whether a string that is not Unicode text (with a lone surrogate) was written.
    private(set) var wroteLoneSurrogate = false

    /// A formatter for `layout`; see `JSONOutput+Strings` for `terminalSafe`.
    init(
        layout: Layout, terminalSafe: Bool, budget: Int = .max, sink: ((UnsafeRawBufferPointer) -> Void)? = nil
    ) {
        self.layout = layout
        self.terminalSafe = terminalSafe
        self.budget = budget
        self.sink = sink
    }

    /// Whether a value was cut to fit the budget.
    private(set) var wasCut = false

    /// Whether the output is past the budget, or a value was cut: a walk stops writing values.
    var isSpent: Bool { wasCut || output.count > budget }

    /// What was written (since the last chunk handed to the sink), as text.
    var text: String { String(decoding: output.bytes, as: UTF8.self) }

    /// What was written (since the last chunk handed to the sink), as bytes.
    var utf8: [UInt8] { Array(output.bytes) }

    /// Hands what is left to the sink.
    func finish() {
        guard let sink, output.count > 0 else { return }
        sink(output.bytes)
        output.count = 0
    }

    // MARK: Tokens

    /// The separator and line break before a value or a name inside a container.
    @inline(__always)
    private mutating func separate() {
        if afterName {
            afterName = false
            return
        }
        guard depth > 0 else { return }
        if !isFirst {
            if case .line = layout { output.append(", ") } else { output.append(UInt8(ascii: ",")) }
        }
        isFirst = false
        if case .pretty(let indent) = layout { newline(indent &* depth) }
    }

    private func newline(_ spaces: Int) {
        output.append(UInt8(ascii: "\n"))
        let blanks: StaticString = "                                "  // 32
        var left = spaces
        while left > 0 {
            let run = min(left, 32)
            output.append(UnsafeRawBufferPointer(start: blanks.utf8Start, count: run))
            left &-= run
        }
    }

    @inline(__always)
    private func chunkIfFull() {
        if let sink, output.count >= 1 << 16 {
            sink(output.bytes)
            output.count = 0
        }
    }

    mutating func openArray() {
        separate()
        output.append(UInt8(ascii: "["))
        depth &+= 1
        isFirst = true
    }

    mutating func closeArray() {
        close(UInt8(ascii: "]"))
    }

    mutating func openObject() {
        separate()
        output.append(UInt8(ascii: "{"))
        depth &+= 1
        isFirst = true
    }

    mutating func closeObject() {
        close(UInt8(ascii: "}"))
    }

    private mutating func close(_ bracket: UInt8) {
        depth &-= 1
        if !isFirst, case .pretty(let indent) = layout { newline(indent &* depth) }
        output.append(bracket)
        isFirst = false
        chunkIfFull()
    }

    /// A member's name; its value comes next.
    mutating func name(_ name: String) {
        separate()
        if output.appendQuoted(name, terminalSafe: terminalSafe) { wroteLoneSurrogate = true }
        colon()
    }

    /// A member's name, as WTF-8 (see `LoneSurrogates`); its value comes next.
    mutating func name(wtf8: UnsafeBufferPointer<UInt8>) {
        separate()
        if output.appendQuoted(wtf8: wtf8, terminalSafe: terminalSafe) { wroteLoneSurrogate = true }
        colon()
    }

    private mutating func colon() {
        if case .compact = layout { output.append(UInt8(ascii: ":")) } else { output.append(": ") }
        afterName = true
    }

    mutating func string(_ string: String) {
        separate()
        if output.appendQuoted(string, terminalSafe: terminalSafe) { wroteLoneSurrogate = true }
        chunkIfFull()
    }

    /// A string, as WTF-8 (see `LoneSurrogates`).
    mutating func string(wtf8: UnsafeBufferPointer<UInt8>) {
        separate()
        if output.appendQuoted(wtf8: wtf8, terminalSafe: terminalSafe) { wroteLoneSurrogate = true }
        chunkIfFull()
    }

    /// A number, as the text of a valid JSON number.
    mutating func number(_ text: UnsafeRawBufferPointer) {
        separate()
        output.append(text)
        chunkIfFull()
    }

    /// `true`, `false` or `null`.
    mutating func literal(_ word: StaticString) {
        separate()
        output.append(word)
        chunkIfFull()
    }

    // MARK: Cut to the budget

    /// Bytes left before the budget is spent.
    var remaining: Int { budget &- output.count }

    /// The start of a number too long for the budget: what fits; the budget is then spent.
    mutating func cutNumber(_ text: UnsafeRawBufferPointer) {
        separate()
        output.append(UnsafeRawBufferPointer(rebasing: text.prefix(max(0, remaining))))
        wasCut = true
    }

    /// The start of a string too long for the budget: its opening quote and the characters that
    /// fit, escaped, without the closing quote; the budget is then spent.
    mutating func cutString(_ string: String) {
        separate()
        let prefix = String(string.prefix(max(0, remaining)))
        if output.appendQuoted(prefix, terminalSafe: terminalSafe) { wroteLoneSurrogate = true }
        output.count &-= 1  // the closing quote
        wasCut = true
    }
}
