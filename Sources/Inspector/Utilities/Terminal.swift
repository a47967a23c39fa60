import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal in full-screen mode: raw keys, the alternate screen, a hidden cursor.
///
/// `Terminal.enter()` switches the terminal over and `restore()` puts it back exactly as it was.
/// The original settings are also restored from signal handlers (SIGINT, SIGTERM, SIGHUP,
/// SIGQUIT), and by `atexit`, so the user's shell is never left in raw mode, whatever ends the
/// program. Ctrl-C arrives as a key (raw mode turns signal keys off), and the view quits on it.
final class Terminal {
    /// A key the view understands.
    enum Key: Equatable {
        case character(Character)
        case up, down, left, right, home, end, pageUp, pageDown
        case enter, tab, backspace, escape, interrupt
        /// The window changed size.
        case resize
        /// Nothing happened for a fifth of a second: a chance to show work finished meanwhile.
        case tick
    }

    private let input: Int32
    private let output: Int32

    private init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    /// Switches the terminal on `input`/`output` to full-screen mode. Returns nil when they are
    /// not a terminal.
    static func enter(input: Int32 = 0, output: Int32 = 1) -> Terminal? {
        guard isatty(input) == 1, isatty(output) == 1 else { return nil }
        var original = termios()
        guard tcgetattr(input, &original) == 0 else { return nil }
        TerminalState.save(original, descriptor: input, output: output)
        var raw = original
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(input, TCSAFLUSH, &raw)
        TerminalState.installHandlers()
        let terminal = Terminal(input: input, output: output)
        terminal.write(TerminalState.enterSequence)
        return terminal
    }

    /// Puts the terminal back as it was. Safe to call more than once.
    func restore() {
        TerminalState.restore()
    }

    deinit {
        restore()
    }

    /// The window's size.
    var size: (columns: Int, rows: Int) {
        TTY.size(output) ?? (80, 24)
    }

    /// Draws `lines` as the whole screen, each cut or padded to the width. Lines may hold ANSI
    /// styles; their width is counted without them.
    func draw(_ lines: [String]) {
        var frame = "\u{1B}[H"
        let (columns, rows) = size
        for row in 0..<rows {
            let line = row < lines.count ? lines[row] : ""
            frame += ScreenText.fit(line, width: columns)
            frame += row + 1 < rows ? "\r\n" : ""
        }
        write(frame)
    }

    /// Waits for the next key, a resize, or a fifth of a second (`.tick`).
    func readKey() -> Key? {
        while true {
            if TerminalState.takeResize() { return .resize }
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 200)
            if ready < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if ready == 0 { return .tick }
            guard let byte = readByte() else { return nil }
            return decode(byte)
        }
    }

    private func decode(_ byte: UInt8) -> Key {
        switch byte {
        case 3: return .interrupt
        case 9: return .tab
        case 10, 13: return .enter
        case 8, 127: return .backspace
        case 27: return decodeEscape()
        default:
            if byte < 0x80 { return .character(Character(Unicode.Scalar(byte))) }
            return decodeUTF8(first: byte)
        }
    }

    /// ESC alone, or a CSI/SS3 sequence: arrows, Home/End, Page Up/Down.
    private func decodeEscape() -> Key {
        guard let next = readByte(timeoutMilliseconds: 30) else { return .escape }
        guard next == UInt8(ascii: "[") || next == UInt8(ascii: "O") else { return .escape }
        var parameters: [UInt8] = []
        while let byte = readByte(timeoutMilliseconds: 30) {
            if (0x40...0x7E).contains(byte) {
                switch (byte, parameters) {
                case (UInt8(ascii: "A"), _): return .up
                case (UInt8(ascii: "B"), _): return .down
                case (UInt8(ascii: "C"), _): return .right
                case (UInt8(ascii: "D"), _): return .left
                case (UInt8(ascii: "H"), _): return .home
                case (UInt8(ascii: "F"), _): return .end
                case (UInt8(ascii: "~"), [UInt8(ascii: "1")]), (UInt8(ascii: "~"), [UInt8(ascii: "7")]): return .home
                case (UInt8(ascii: "~"), [UInt8(ascii: "4")]), (UInt8(ascii: "~"), [UInt8(ascii: "8")]): return .end
                case (UInt8(ascii: "~"), [UInt8(ascii: "5")]): return .pageUp
                case (UInt8(ascii: "~"), [UInt8(ascii: "6")]): return .pageDown
                default: return .escape
                }
            }
            parameters.append(byte)
            if parameters.count > 16 { break }
        }
        return .escape
    }

    private func decodeUTF8(first: UInt8) -> Key {
        let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
        var bytes = [first]
        while bytes.count < length, let byte = readByte(timeoutMilliseconds: 30) { bytes.append(byte) }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.first.map(Key.character) ?? .escape
    }

    private func readByte(timeoutMilliseconds: Int32 = -1) -> UInt8? {
        if timeoutMilliseconds >= 0 {
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, timeoutMilliseconds) > 0 else { return nil }
        }
        var byte: UInt8 = 0
        while true {
            let count = read(input, &byte, 1)
            if count == 1 { return byte }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }

    private func write(_ text: String) {
        var text = text
        text.withUTF8 { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(output, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}

/// What must survive into signal handlers: the original terminal settings. Signal handlers can
/// touch only plain memory, so the settings live in a static buffer written once before the
/// handlers are installed; the flags are atomics.
enum TerminalState {
    nonisolated(unsafe) private static var original = termios()
    nonisolated(unsafe) private static var input: Int32 = 0
    nonisolated(unsafe) private static var output: Int32 = 1
    private static let active = Atomic<Bool>(false)
    private static let resized = Atomic<Bool>(false)
    private static let installed = Atomic<Bool>(false)

    /// Alternate screen, hidden cursor, cleared.
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"
    /// Cursor shown again, back to the main screen.
    static let leaveSequence: StaticString = "\u{1B}[?25h\u{1B}[?1049l"

    static func save(_ settings: termios, descriptor: Int32, output: Int32) {
        original = settings
        input = descriptor
        self.output = output
        active.store(true, ordering: .sequentiallyConsistent)
    }

    /// Restores the saved settings once; async-signal-safe (tcsetattr and write only).
    static func restore() {
        guard active.exchange(false, ordering: .sequentiallyConsistent) else { return }
        _ = Glibc.write(output, leaveSequence.utf8Start, leaveSequence.utf8CodeUnitCount)
        tcsetattr(input, TCSAFLUSH, &original)
    }

    static func takeResize() -> Bool {
        resized.exchange(false, ordering: .sequentiallyConsistent)
    }

    static func installHandlers() {
        guard !installed.exchange(true, ordering: .sequentiallyConsistent) else { return }
        atexit { TerminalState.restore() }
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(signalNumber) { number in
                TerminalState.restore()
                signal(number, SIG_DFL)
                raise(number)
            }
        }
        signal(SIGWINCH) { _ in
            TerminalState.resized.store(true, ordering: .sequentiallyConsistent)
        }
    }
}
