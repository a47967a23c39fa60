@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) internal import ToolSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the app reads command lines and writes screens: the process's standard streams, or
/// memory in tests. A class: it is the one place the app's input and output go, and a test
/// reads back what was written to it.
final class Console {
    /// Whether standard output is a terminal: the screen is cleared before each draw.
    let isTerminal: Bool
    /// Whether standard input is a terminal too: the app prompts, and `replay` waits for keys.
    let isInteractive: Bool
    /// Colours, on a terminal without `NO_COLOR` or `TERM=dumb`.
    let style: TextStyle
    private let capturesOutput: Bool
    private var pendingInput: [String]
    /// What was written to standard output, when captured.
    private(set) var output = ""
    /// What was written to standard error, when captured.
    private(set) var errors = ""

    private init(isTerminal: Bool, isInteractive: Bool, style: TextStyle, capturesOutput: Bool, input: [String]) {
        self.isTerminal = isTerminal
        self.isInteractive = isInteractive
        self.style = style
        self.capturesOutput = capturesOutput
        self.pendingInput = input
    }

    /// The process's standard streams.
    static func standard() -> Console {
        let isTerminal = SystemCalls.isTerminal(1)
        let wantsColor = isTerminal && getenv("NO_COLOR") == nil && getenv("TERM").map { String(cString: $0) } != "dumb"
        return Console(
            isTerminal: isTerminal, isInteractive: isTerminal && SystemCalls.isTerminal(0),
            style: TextStyle(enabled: wantsColor), capturesOutput: false, input: [])
    }

    /// A console that reads the lines of `input` and keeps what is written, for tests.
    static func capturing(input: String = "", interactive: Bool = false) -> Console {
        var lines = input.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return Console(
            isTerminal: interactive, isInteractive: interactive, style: .plain, capturesOutput: true, input: lines)
    }

    /// Writes `text` to standard output.
    func write(_ text: String) {
        if capturesOutput { output += text } else { SystemCalls.writeAll(1, text) }
    }

    /// Writes `text` to standard error.
    func writeError(_ text: String) {
        if capturesOutput { errors += text } else { SystemCalls.writeAll(2, text) }
    }

    /// The next line of standard input, without its line ending; nil at the end.
    func readLine() -> String? {
        guard capturesOutput else {
            guard let line = Swift.readLine(strippingNewline: true) else { return nil }
            return line.hasSuffix("\r") ? String(line.dropLast()) : line
        }
        return pendingInput.isEmpty ? nil : pendingInput.removeFirst()
    }
}
