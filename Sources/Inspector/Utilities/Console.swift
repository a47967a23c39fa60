@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) internal import ToolSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command reads and writes: the process's standard streams, or buffers in tests.
final class Console {
    /// Standard output, buffered; flushed when full and when the command ends.
    let out: TextStream
    /// Standard error, unbuffered.
    let err: TextStream
    /// Lines of standard input (commands of `step` when not on a terminal).
    let input: CommandInput
    /// Whether standard output is a terminal (full-screen views, progress).
    let isTerminal: Bool
    /// Whether standard error is a terminal (progress display).
    let errorIsTerminal: Bool
    /// Styles for standard output.
    let style: Style
    /// The environment.
    let environment: [String: String]

    init(
        out: TextStream, err: TextStream, input: CommandInput, isTerminal: Bool, errorIsTerminal: Bool, color: Bool,
        environment: [String: String]
    ) {
        self.out = out
        self.err = err
        self.input = input
        self.isTerminal = isTerminal
        self.errorIsTerminal = errorIsTerminal
        self.style = Style(enabled: color)
        self.environment = environment
    }

    /// The process's own streams.
    static func standard() -> Console {
        PipeBuffer.grow(1)
        var environment: [String: String] = [:]
        #if canImport(Darwin)
            // Darwin's headers declare no `environ` to Swift; `_NSGetEnviron` is its address.
            var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = _NSGetEnviron()?.pointee
        #else
            var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        #endif
        while let current = entry, let pointer = current.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry = current + 1
        }
        return Console(
            out: TextStream(descriptor: 1), err: TextStream(descriptor: 2, buffered: false),
            input: CommandInput(descriptor: 0), isTerminal: TTY.isTerminal(1), errorIsTerminal: TTY.isTerminal(2),
            color: TTY.wantsColor(1, environment: environment), environment: environment)
    }

    /// A console that captures output in memory and reads `input` as standard input, for tests.
    static func capturing(input: String = "", environment: [String: String] = [:]) -> Console {
        Console(
            out: TextStream(), err: TextStream(), input: CommandInput(text: input),
            isTerminal: false, errorIsTerminal: false, color: false, environment: environment)
    }
}

/// An output stream: a file descriptor with a buffer, or memory.
///
/// Every byte written goes through `TerminalText.neutralized`: a control character, a
/// bidirectional override or a zero-width character that a command failed to escape (in a file
/// name, a store's name, a state) is written as a JSON escape (`\u001b`), so that nothing from a
/// trace or a path drives the terminal or hides in a name, and JSON output stays valid JSON. The
/// colour sequences of `Style` pass; `writeControl` is for the few sequences the commands
/// write on purpose (the progress line).
final class TextStream {
    private let descriptor: Int32?
    private let buffered: Bool
    private var buffer: [UInt8] = []

    init(descriptor: Int32, buffered: Bool = true) {
        self.descriptor = descriptor
        self.buffered = buffered
        buffer.reserveCapacity(1 << 16)
    }

    /// A stream kept in memory; read it with `text`.
    init() {
        descriptor = nil
        buffered = true
    }

    /// Everything written to a memory stream.
    var text: String { String(decoding: buffer, as: UTF8.self) }

    /// The bytes written and not sent on yet (a buffered stream sends them from 64 KB on).
    var bufferedCount: Int { buffer.count }

    func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Writes `text` and a newline.
    func line(_ text: String = "") {
        write(text)
        buffer.append(10)
        if descriptor != nil && (!buffered || buffer.count >= 1 << 16) { flush() }
    }

    func write(bytes: UnsafeRawBufferPointer) {
        if let safe = TerminalText.neutralized(bytes, allowingStyles: true) {
            buffer.append(contentsOf: safe)
        } else {
            buffer.append(contentsOf: bytes)
        }
        if descriptor != nil && (!buffered || buffer.count >= 1 << 16) { flush() }
    }

    /// Lets `body` append a line to the buffer in place, unless it returns false (it must then
    /// leave the buffer as it was), and ends the line. For text built by the command from bytes
    /// that need no neutralizing (printable ASCII, `Style` sequences, the command's own marks:
    /// `EventLineWriter`), so that a row costs no copy and no second look; false when `body`
    /// refused.
    func appendLine(_ body: (inout [UInt8]) -> Bool) -> Bool {
        guard body(&buffer) else { return false }
        buffer.append(10)
        if descriptor != nil && (!buffered || buffer.count >= 1 << 16) { flush() }
        return true
    }

    /// Writes `sequence` as it is: a terminal control the command means (`\r`, erase line).
    func writeControl(_ sequence: String) {
        buffer.append(contentsOf: sequence.utf8)
        if descriptor != nil && (!buffered || buffer.count >= 1 << 16) { flush() }
    }

    /// Sends buffered bytes to the descriptor. A closed pipe (EPIPE) ends the writes quietly.
    func flush() {
        guard let descriptor, !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { raw in try? SystemCalls.writeAll(descriptor, raw) }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// The commands typed into an interactive view, a line at a time: from a descriptor (standard
/// input) or from a string. (Trace files are read by TraceReader's `ChunkReader`.)
final class CommandInput {
    private let descriptor: Int32?
    private var pending: [UInt8] = []
    private var ended = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    init(text: String) {
        descriptor = nil
        pending = Array(text.utf8)
        ended = true
    }

    /// The next line without its newline (and without a `\r` before it), or nil at the end.
    func readLine() -> String? {
        while true {
            if let newlineIndex = pending.firstIndex(of: 10) {
                var line = Array(pending[..<newlineIndex])
                pending.removeSubrange(...newlineIndex)
                if line.last == 13 { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            if ended || descriptor == nil {
                guard !pending.isEmpty else { return nil }
                defer { pending.removeAll() }
                return String(decoding: pending, as: UTF8.self)
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count =
                (try? chunk.withUnsafeMutableBytes { buffer in
                    Result { () throws(SystemError) in try SystemCalls.read(descriptor!, into: buffer) }
                }.get()) ?? 0
            if count == 0 {
                ended = true
                continue
            }
            pending.append(contentsOf: chunk[..<count])
        }
    }
}
