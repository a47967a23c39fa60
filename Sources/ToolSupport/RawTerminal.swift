@_spi(RewindInternals) import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal in raw mode for a full-screen view, and every way it is put back: the one place
/// that calls `tcgetattr`, `tcsetattr`, `ioctl(TIOCGWINSZ)` and installs signal handlers.
///
/// `enter` saves the terminal's settings, turns off echo, line editing and signal keys (Ctrl-C
/// and Ctrl-Z arrive as bytes 3 and 26), and writes the view's enter sequence (alternate screen,
/// hidden cursor). `restore` writes the leave sequence and puts the settings back; it runs too
/// from the handlers of SIGINT, SIGTERM, SIGHUP and SIGQUIT (then the signal does what it does), of
/// SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS and SIGFPE (a trap or a crash: the process ends
/// anyway), and by `atexit`, so the user's shell is never left in raw mode.
///
/// SIGTSTP (`kill -TSTP`, or `suspend()` for Ctrl-Z) restores the terminal before the process
/// stops; SIGCONT puts it back in raw mode and sets `takeContinued()`, so the view redraws.
/// SIGWINCH sets `takeResize()`.
///
/// Signal handlers can touch only plain memory: the settings and sequences live in static
/// storage written before the handlers are installed, the flags are atomics, and the handlers
/// call only `write`, `tcsetattr`, `signal` and `raise`, which are async-signal-safe.
package enum RawTerminal {
    nonisolated(unsafe) private static var original = termios()
    nonisolated(unsafe) private static var raw = termios()
    nonisolated(unsafe) private static var input: Int32 = 0
    nonisolated(unsafe) private static var output: Int32 = 1
    // The sequences, as C strings that live as long as the process (written before `active`).
    nonisolated(unsafe) private static var enterBytes: UnsafeMutablePointer<UInt8>?
    nonisolated(unsafe) private static var enterCount = 0
    nonisolated(unsafe) private static var leaveBytes: UnsafeMutablePointer<UInt8>?
    nonisolated(unsafe) private static var leaveCount = 0
    private static let active = AtomicCell<Bool>(false)
    private static let suspended = AtomicCell<Bool>(false)
    private static let resized = AtomicCell<Bool>(false)
    private static let continued = AtomicCell<Bool>(false)
    private static let installed = AtomicCell<Bool>(false)

    /// Puts the terminal on `input` and `output` in raw mode and writes `enterSequence` to
    /// `output`. Returns false, changing nothing, when either is not a terminal. Call from one
    /// thread, once at a time.
    package static func enter(
        input: Int32 = 0, output: Int32 = 1, enterSequence: String, leaveSequence: String
    ) -> Bool {
        guard SystemCalls.isTerminal(input), SystemCalls.isTerminal(output), !active.load(ordering: .acquiring)
        else { return false }
        var settings = termios()
        guard tcgetattr(input, &settings) == 0 else { return false }
        original = settings
        raw = makeRaw(settings)
        self.input = input
        self.output = output
        (enterBytes, enterCount) = store(enterSequence, replacing: enterBytes)
        (leaveBytes, leaveCount) = store(leaveSequence, replacing: leaveBytes)
        installHandlers()
        active.store(true, ordering: .sequentiallyConsistent)
        suspended.store(false, ordering: .sequentiallyConsistent)
        applyRaw()
        return true
    }

    /// Puts the terminal back as it was before `enter`; does nothing when it is not in raw mode.
    /// Async-signal-safe.
    package static func restore() {
        guard active.exchange(false, ordering: .sequentiallyConsistent) else { return }
        leave()
    }

    /// Stops the process as Ctrl-Z would in a shell, with the terminal restored first; when it
    /// is continued (`fg`), the terminal is back in raw mode and `takeContinued()` is true.
    package static func suspend() {
        raise(SIGTSTP)
    }

    /// Whether the window changed size since the last call.
    package static func takeResize() -> Bool {
        resized.exchange(false, ordering: .sequentiallyConsistent)
    }

    /// Whether the process was stopped and continued since the last call (the screen must be
    /// drawn again: the shell drew over it).
    package static func takeContinued() -> Bool {
        continued.exchange(false, ordering: .sequentiallyConsistent)
    }

    /// The size of the terminal on `descriptor` in columns and rows; nil when it is none.
    package static func size(_ descriptor: Int32 = 1) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    // MARK: Inside

    /// The settings of raw mode: bytes as typed, no echo, no line editing, no signal keys.
    private static func makeRaw(_ settings: termios) -> termios {
        var raw = settings
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        return raw
    }

    private static func store(
        _ text: String, replacing old: UnsafeMutablePointer<UInt8>?
    ) -> (UnsafeMutablePointer<UInt8>, Int) {
        old?.deallocate()
        let bytes = Array(text.utf8)
        let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, bytes.count))
        pointer.initialize(from: bytes, count: bytes.count)
        return (pointer, bytes.count)
    }

    /// Raw mode and the enter sequence. Async-signal-safe.
    private static func applyRaw() {
        _ = tcsetattr(input, TCSAFLUSH, &raw)
        if let enterBytes {
            try? SystemCalls.writeAll(output, UnsafeRawBufferPointer(start: enterBytes, count: enterCount))
        }
    }

    /// The leave sequence and the original settings. Async-signal-safe.
    private static func leave() {
        if let leaveBytes {
            try? SystemCalls.writeAll(output, UnsafeRawBufferPointer(start: leaveBytes, count: leaveCount))
        }
        _ = tcsetattr(input, TCSAFLUSH, &original)
    }

    private static func installHandlers() {
        guard !installed.exchange(true, ordering: .sequentiallyConsistent) else { return }
        atexit { RawTerminal.restore() }
        // The signals that end the process, a trap or a crash (SIGILL, SIGTRAP, SIGSEGV, …)
        // included: the terminal is put back, then the signal does what it does.
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE] {
            signal(signalNumber) { number in
                RawTerminal.restore()
                signal(number, SIG_DFL)
                raise(number)
            }
        }
        signal(SIGWINCH) { _ in
            RawTerminal.resized.store(true, ordering: .sequentiallyConsistent)
        }
        signal(SIGTSTP, stopHandler)
        signal(SIGCONT) { _ in
            signal(SIGTSTP, RawTerminal.stopHandler)
            // Back in raw mode only if the view was in it when it stopped.
            guard RawTerminal.suspended.exchange(false, ordering: .sequentiallyConsistent) else { return }
            RawTerminal.active.store(true, ordering: .sequentiallyConsistent)
            RawTerminal.applyRaw()
            RawTerminal.continued.store(true, ordering: .sequentiallyConsistent)
        }
    }

    /// SIGTSTP: restore the terminal, then stop as the default action would (the signal is
    /// raised again with its default action; it is delivered when this handler returns).
    private static let stopHandler: @convention(c) (Int32) -> Void = { _ in
        if RawTerminal.active.exchange(false, ordering: .sequentiallyConsistent) {
            RawTerminal.leave()
            RawTerminal.suspended.store(true, ordering: .sequentiallyConsistent)
        }
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
    }
}
