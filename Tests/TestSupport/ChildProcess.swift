import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program the tests run: started with `posix_spawnp`, reaped with `waitpid`, never waited on
/// for longer than a deadline.
///
/// Foundation's `Process` is deliberately not used. On Linux (swift-corelibs-foundation with
/// Swift 6.3.1) its `waitUntilExit()` was seen to wait forever for a child that had already
/// exited (a zombie that its SIGCHLD monitor never reaped) while other tests started processes
/// on other threads; CI then ran until its time limit. Here the test's own thread reaps its own
/// child with `waitpid(pid)`, so no other thread or signal handler is involved, and every wait has
/// a deadline after which the child is killed and the test fails with what it was running.
///
/// It is a class because a running child has identity: it is reaped exactly once.
public final class ChildProcess {
    /// Where a child's standard input comes from.
    public enum Input {
        /// `/dev/null`: the child reads end of file at once.
        case null
        /// A pipe the test writes to with ``communicate(input:timeout:)``.
        case pipe
        /// A file, read from its start.
        case file(String)
    }

    /// Where a child's standard output or standard error goes.
    public enum Output {
        /// `/dev/null`.
        case null
        /// A pipe that ``communicate(input:timeout:)`` reads.
        case pipe
        /// A file, created or truncated.
        case file(String)
    }

    /// How a child ended.
    public enum Termination: Equatable, CustomStringConvertible {
        /// It called `exit` with this status.
        case exited(Int32)
        /// It was killed by this signal.
        case signalled(Int32)
        /// It outlived the deadline and was killed by the test.
        case timedOut

        /// The signal that killed it, if one did (not the test's kill at the deadline).
        public var signal: Int32? {
            if case .signalled(let signal) = self { signal } else { nil }
        }

        public var description: String {
            switch self {
            case .exited(let status): "exit status \(status)"
            case .signalled(let signal): "signal \(signal)"
            case .timedOut: "no end before the deadline (killed)"
            }
        }
    }

    /// What ``communicate(input:timeout:)`` collected.
    public struct Outcome {
        public var termination: Termination
        public var output: Data
        public var errors: Data
        public var outputText: String { String(decoding: output, as: UTF8.self) }
        public var errorText: String { String(decoding: errors, as: UTF8.self) }
    }

    /// The child's process id.
    public let pid: pid_t
    /// The command line, for messages.
    public let commandLine: String
    private var inputFD: Int32 = -1
    private var outputFD: Int32 = -1
    private var errorFD: Int32 = -1
    private var ended: Termination?

    /// Starts `program` (a path, or a name looked up in `PATH`) with `arguments`.
    ///
    /// The child has the test's environment with the variables in `adding` set on top, default
    /// signal dispositions, no blocked signals, and no file descriptor but its three standard ones.
    public init(
        _ program: String, _ arguments: [String] = [], adding extra: [String: String] = [:],
        input: Input = .null, output: Output = .null, errors: Output = .null
    ) throws {
        commandLine = ([program] + arguments).joined(separator: " ")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var childEnds: [Int32] = []
        defer { for fd in childEnds { close(fd) } }

        func pipePair() throws -> (read: Int32, write: Int32) {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { throw ChildProcessError("pipe: \(String(cString: strerror(errno)))") }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return (fds[0], fds[1])
        }
        switch input {
        case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .file(let path): posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        case .pipe:
            let pair = try pipePair()
            inputFD = pair.write
            childEnds.append(pair.read)
            posix_spawn_file_actions_adddup2(&actions, pair.read, 0)
        }
        for (target, destination) in [(Int32(1), output), (Int32(2), errors)] {
            switch destination {
            case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .pipe:
                let pair = try pipePair()
                if target == 1 { outputFD = pair.read } else { errorFD = pair.read }
                childEnds.append(pair.write)
                posix_spawn_file_actions_adddup2(&actions, pair.write, target)
            }
        }
        Self.closeInheritedDescriptors(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var variables = ProcessInfo.processInfo.environment
        for (key, value) in extra { variables[key] = value }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }

        var child: pid_t = 0
        let status = posix_spawnp(&child, program, &actions, &attributes, argv, envp)
        guard status == 0 else {
            for fd in [inputFD, outputFD, errorFD] where fd >= 0 { close(fd) }
            throw ChildProcessError("cannot start \(program): \(String(cString: strerror(status)))")
        }
        pid = child
    }

    deinit {
        for fd in [inputFD, outputFD, errorFD] where fd >= 0 { close(fd) }
        if ended == nil {
            kill(pid, SIGKILL)
            _ = reap(blocking: true)
        }
    }

    /// Runs `program` to its end and returns what it printed; kills it after `timeout` seconds.
    public static func run(
        _ program: String, _ arguments: [String] = [], input: Data? = nil,
        adding extra: [String: String] = [:], timeout: Double = 120
    ) throws -> Outcome {
        let child = try ChildProcess(
            program, arguments, adding: extra, input: input == nil ? .null : .pipe, output: .pipe, errors: .pipe)
        return child.communicate(input: input, timeout: timeout)
    }

    /// Whether the child has ended (it is reaped if so).
    public var hasEnded: Bool { ended != nil || reap(blocking: false) != nil }

    /// Sends `signal` to the child (nothing if it has been reaped).
    public func send(_ signal: Int32) {
        if ended == nil { kill(pid, signal) }
    }

    /// Waits for the child to end, at most `timeout` seconds; then kills it.
    @discardableResult
    public func wait(timeout: Double = 120) -> Termination {
        let deadline = Date().addingTimeInterval(timeout)
        var pause: useconds_t = 100
        while true {
            if let termination = ended ?? reap(blocking: false) { return termination }
            if Date() >= deadline { return killForTimeout() }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }

    /// Writes `input` (then closes the child's standard input), reads its piped output and errors
    /// until it ends, and reaps it. After `timeout` seconds the child is killed.
    ///
    /// Reading stops when the child has ended and its pipes hold nothing more, even if a process
    /// the child started (a daemon such as the tmux server) still holds them open.
    public func communicate(input: Data? = nil, timeout: Double = 120) -> Outcome {
        let deadline = Date().addingTimeInterval(timeout)
        let (output, errors) = pump(input: input, deadline: deadline, until: nil)
        let termination = wait(timeout: max(0, deadline.timeIntervalSinceNow))
        return Outcome(termination: termination, output: output, errors: errors)
    }

    /// Reads the child's piped output until a whole line of it equals `line`, the child ends, or
    /// `timeout` seconds pass (then the child is killed); returns the output read. The child is
    /// left running when the line came.
    public func readOutput(until line: String, timeout: Double = 120) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        let (output, _) = pump(input: nil, deadline: deadline) { output in
            String(decoding: output, as: UTF8.self).split(separator: "\n").contains(Substring(line))
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Everything the calls of ``readOutput(untilContains:timeout:)`` have read, in order.
    public private(set) var outputSoFar = ""

    /// Reads the child's piped output until all of it read so far (`outputSoFar`, which this
    /// adds to) contains `text`, the child ends, or `timeout` seconds pass (then the child is
    /// killed); returns `outputSoFar`. Its standard input stays open (see ``writeInput(_:)``).
    @discardableResult
    public func readOutput(untilContains text: String, timeout: Double = 30) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        let before = outputSoFar
        let (output, _) = pump(input: nil, deadline: deadline, closingInput: false) { output in
            (before + String(decoding: output, as: UTF8.self)).contains(text)
        }
        outputSoFar += String(decoding: output, as: UTF8.self)
        return outputSoFar
    }

    /// Writes `text` to the child's standard input (`input: .pipe`), and leaves it open.
    public func writeInput(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { write(inputFD, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw ChildProcessError("writing to \(commandLine): \(String(cString: strerror(errno)))")
            }
            bytes = bytes.dropFirst(count)
        }
    }

    private func pump(input: Data?, deadline: Date, closingInput: Bool = true, until done: ((Data) -> Bool)? = nil)
        -> (Data, Data)
    {
        var output = Data()
        var errors = Data()
        let pending = [UInt8](input ?? Data())
        var written = 0
        if inputFD >= 0 {
            _ = fcntl(inputFD, F_SETFL, fcntl(inputFD, F_GETFL) | O_NONBLOCK)
            if pending.isEmpty && closingInput { closeInput() }
        }
        var buffer = [UInt8](repeating: 0, count: 65536)

        /// Reads what `fd` holds now into `data`; false at end of file.
        func drain(_ fd: Int32, into data: inout Data) -> Bool {
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count > 0 {
                    data.append(contentsOf: buffer[0..<count])
                    continue
                }
                if count < 0, errno == EINTR { continue }
                return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
            }
        }
        for fd in [outputFD, errorFD] where fd >= 0 { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }

        while outputFD >= 0 || errorFD >= 0 || (inputFD >= 0 && closingInput) {
            if Date() >= deadline {
                _ = killForTimeout()
                break
            }
            var fds: [pollfd] = []
            if outputFD >= 0 { fds.append(pollfd(fd: outputFD, events: Int16(POLLIN), revents: 0)) }
            if errorFD >= 0 { fds.append(pollfd(fd: errorFD, events: Int16(POLLIN), revents: 0)) }
            if inputFD >= 0 && closingInput { fds.append(pollfd(fd: inputFD, events: Int16(POLLOUT), revents: 0)) }
            _ = poll(&fds, nfds_t(fds.count), 50)
            if inputFD >= 0 && closingInput {
                let count = pending.withUnsafeBytes { bytes in
                    write(inputFD, bytes.baseAddress! + written, bytes.count - written)
                }
                if count > 0 { written += count }
                if written == pending.count || (count < 0 && errno == EPIPE) { closeInput() }
            }
            if outputFD >= 0, !drain(outputFD, into: &output) {
                close(outputFD)
                outputFD = -1
            }
            if errorFD >= 0, !drain(errorFD, into: &errors) {
                close(errorFD)
                errorFD = -1
            }
            if let done, done(output) { break }
            if hasEnded {
                // What the child wrote is in the pipes now; a descendant may keep them open.
                if outputFD >= 0 {
                    _ = drain(outputFD, into: &output)
                    close(outputFD)
                    outputFD = -1
                }
                if errorFD >= 0 {
                    _ = drain(errorFD, into: &errors)
                    close(errorFD)
                    errorFD = -1
                }
                closeInput()
            }
        }
        return (output, errors)
    }

    /// Adds the closing of every descriptor above 2 to `actions`, so that a child (and a daemon it
    /// starts) holds no other test's pipe open. glibc 2.34 and later have a file action for it,
    /// which its headers declare only for `_GNU_SOURCE`; it is looked up by name. Otherwise each
    /// descriptor open now is closed (a descriptor opened after this look is close-on-exec when
    /// it is one of ours).
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        #if canImport(Glibc)
            if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
                _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
                return
            }
        #endif
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
    }

    private func closeInput() {
        if inputFD >= 0 {
            close(inputFD)
            inputFD = -1
        }
    }

    private func killForTimeout() -> Termination {
        kill(pid, SIGKILL)
        _ = reap(blocking: true)
        ended = .timedOut
        return .timedOut
    }

    /// Reaps the child if it has ended; records and returns how.
    private func reap(blocking: Bool) -> Termination? {
        if let ended { return ended }
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
        guard result == pid else { return nil }
        // WIFEXITED / WTERMSIG are macros, which Swift does not import.
        let signal = status & 0x7f
        ended = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
        return ended
    }
}

/// A child process could not be started, or did not end in time.
public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }

    /// `commandLine` was still running at its deadline, and was killed.
    public static func timedOut(_ commandLine: String) -> ChildProcessError {
        ChildProcessError("\(commandLine) did not end before its deadline and was killed")
    }
}
