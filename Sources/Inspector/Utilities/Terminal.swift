@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) internal import ToolSupport

/// The terminal in full-screen mode: raw keys, the alternate screen, a hidden cursor.
///
/// `Terminal.enter()` switches the terminal over and `restore()` puts it back exactly as it was;
/// `RawTerminal` (RewindSupport) also puts it back when a signal ends or stops the process, and
/// at exit, so the user's shell is never left in raw mode, whatever ends the program. Ctrl-C and
/// Ctrl-Z arrive as keys (raw mode turns the signal keys off): the view quits on the one and
/// stops (`suspend()`) on the other.
final class Terminal {
    private let input: Int32
    private let output: Int32
    /// Bytes read and not yet decoded into keys.
    private var pending: [UInt8] = []

    /// Alternate screen, hidden cursor, cleared.
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"
    /// Cursor shown again, back to the main screen.
    static let leaveSequence = "\u{1B}[?25h\u{1B}[?1049l"

    private init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    /// Switches the terminal on `input`/`output` to full-screen mode. Returns nil when they are
    /// not a terminal.
    static func enter(input: Int32 = 0, output: Int32 = 1) -> Terminal? {
        guard
            RawTerminal.enter(
                input: input, output: output, enterSequence: enterSequence, leaveSequence: leaveSequence)
        else { return nil }
        return Terminal(input: input, output: output)
    }

    /// Puts the terminal back as it was. Safe to call more than once.
    func restore() {
        RawTerminal.restore()
    }

    /// Stops the process as Ctrl-Z does in a shell, the terminal restored meanwhile; returns
    /// when it is continued, back in full-screen mode (the next key is `.continued`).
    func suspend() {
        RawTerminal.suspend()
    }

    deinit {
        restore()
    }

    /// The window's size.
    var size: (columns: Int, rows: Int) {
        RawTerminal.size(output) ?? (80, 24)
    }

    /// Draws `lines` as the whole screen, each cut or padded to the width. Lines may hold ANSI
    /// styles; their width is counted without them.
    func draw(_ lines: [String]) {
        var frame = "\u{1B}[H"
        let (columns, rows) = size
        for row in 0..<rows {
            let line = row < lines.count ? lines[row] : ""
            frame += ScreenText.fit(Self.neutralized(line), width: columns)
            frame += row + 1 < rows ? "\r\n" : ""
        }
        SystemCalls.writeAll(output, frame)
    }

    /// `line` with anything but its colours that could drive the terminal escaped (see
    /// `TerminalText.neutralized`): the screen's last line of defence.
    static func neutralized(_ line: String) -> String {
        var line = line
        let safe = line.withUTF8 { TerminalText.neutralized(UnsafeRawBufferPointer($0), allowingStyles: true) }
        return safe.map { String(decoding: $0, as: UTF8.self) } ?? line
    }

    /// Waits for the next key, a resize, a continue after a stop, or a fifth of a second
    /// (`.tick`); nil when the terminal can no longer be read.
    func readKey() -> Key? {
        while true {
            if RawTerminal.takeContinued() { return .continued }
            if RawTerminal.takeResize() { return .resize }
            switch KeyDecoder.decode(pending[...]) {
            case .key(let key, let length):
                pending.removeFirst(length)
                return key
            case .incomplete where !pending.isEmpty:
                // The rest of a sequence comes at once, or not at all.
                if !(readMore(timeoutMilliseconds: 30) ?? false),
                    case .key(let key, let length) = KeyDecoder.decode(pending[...], complete: true)
                {
                    pending.removeFirst(length)
                    return key
                }
            case .incomplete:
                guard let got = readMore(timeoutMilliseconds: 200) else { return nil }
                if !got && pending.isEmpty { return .tick }
            }
        }
    }

    /// Reads what the terminal has, waiting at most `timeoutMilliseconds`; returns whether bytes
    /// came, or nil when the terminal is gone (its end, or an error).
    private func readMore(timeoutMilliseconds: Int32) -> Bool? {
        do throws(SystemError) {
            guard try SystemCalls.waitForInput(input, timeoutMilliseconds: timeoutMilliseconds) else { return false }
            var chunk = [UInt8](repeating: 0, count: 256)
            let count = try chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) in try SystemCalls.read(input, into: buffer) }
            }.get()
            guard count > 0 else { return nil }
            pending.append(contentsOf: chunk[..<count])
            return true
        } catch {
            return nil
        }
    }
}
