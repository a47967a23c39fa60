import CommandLineArguments
import Dispatch
@_spi(RewindInternals) internal import RewindSupport
import TimeTravel
@_spi(RewindInternals) internal import ToolSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `sample-app [--trace FILE] [--seed N]`: the shop, interactive. It draws the screen, reads one
/// command per line, runs it, and draws again.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
enum ShopMode: Subcommand {
    static let name = "shop"

    static let help = """
        Usage: sample-app [--trace FILE] [--seed N] [--control SOCKET]

        Opens the shop: draws the catalog, the cart, the checkout and a status line, then reads
        one command per line and draws the screen again after each.

        \(ShopCommand.reference)

        The catalog comes from a fake network whose delays (1-3 ticks) and failures (1 in 4) are
        decided by the seed, so the same seed and commands give the same run. A 'refresh' while
        the catalog is still loading is recorded as toLoading from loading, an illegal transition
        that 'inspector validate' reports: try 'refresh' as the first command.

        Time travel: with --control, 'inspector step --attach SOCKET' in another terminal sets
        the running shop to any step of its trace, and the screen shows that past; 'r' in the
        inspector brings it back to its present. Then type commands to go on from there.

        Options:
          --trace FILE       record every action to FILE (replaced if it exists); says
                             'Recording to' its absolute path on standard error
          --seed N           the fake network's seed (default 2)
          --control SOCKET   open a control channel at SOCKET (needs --trace), for
                             'inspector step --attach SOCKET'; REWIND_CONTROL=SOCKET does too
          --help, -h         show this help
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let path = try arguments.option("--trace")
        let seed = try arguments.intOption("--seed", in: 0...Int.max)
        let control = try arguments.option("--control") ?? environmentValue("REWIND_CONTROL")
        try arguments.finish()
        if control != nil && path == nil {
            throw UsageError("--control needs --trace FILE: time travel sets the shop to the steps of its own trace")
        }
        var configuration = ShopConfiguration()
        if let seed { configuration.seed = UInt64(seed) }
        let recorder = try path.map { try Shop.recorder(path: $0) }
        // Where it records, as the README tells an app to print it: on standard error, so that
        // the screens on standard output stay as they are. On a terminal every draw clears the
        // screen, this line with it, so it is said again when the shop closes.
        let recording = path.map { "Recording to \(absolutePath($0))\n" }
        if let recording { console.writeError(recording) }
        defer { if let recording, console.isTerminal { console.writeError(recording) } }
        let session = ShopSession(shop: Shop(configuration: configuration, recorder: recorder), console: console)
        let channel = try control.map { socket in
            try ControlChannel(
                socketPath: socket, tracePath: path ?? "", restorer: session.shop.restorer,
                perform: { work in session.queue.async(execute: work) },
                onRestore: { report in session.restored(report) })
        }
        defer { channel?.close() }
        session.start()
        while let line = session.nextLine() {
            guard session.handle(line) else { return 0 }
        }
        return 0
    }

    /// `path` made absolute, its links and `.` and `..` resolved (the file exists: the recorder
    /// made it); as given if that fails.
    private static func absolutePath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func environmentValue(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// The running shop: its screen, its commands, and the restores an attached inspector asks for.
///
/// Everything that touches the shop runs on `queue`, one at a time: the commands read from
/// standard input (on the main thread, handed over with `sync`) and the restores of the control
/// channel (handed over with `async` by its `perform`). That is why the class may be shared
/// between those threads (`@unchecked Sendable`): the shop and the console are only used on the
/// queue. Reading standard input (`nextLine`) stays on the main thread, so a restore is drawn
/// while the shopper has not typed anything.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class ShopSession: @unchecked Sendable {
    let shop: Shop
    let queue = DispatchQueue(label: "sample-app shop")
    private let console: Console
    private let renderer: ScreenRenderer

    init(shop: Shop, console: Console) {
        self.shop = shop
        self.console = console
        self.renderer = ScreenRenderer(style: console.style)
    }

    /// Opens the shop and draws its first screen.
    func start() {
        queue.sync {
            shop.launch()
            draw()
            prompt()
        }
    }

    /// The next command line, read on the calling thread; nil at the end of the input.
    func nextLine() -> String? {
        guard let line = console.readLine() else {
            if console.isInteractive { queue.sync { console.write("\n") } }
            return nil
        }
        return line
    }

    /// Runs one command line and draws the screen; returns false for `quit`.
    func handle(_ line: String) -> Bool {
        queue.sync { () -> Bool in
            let goesOn = run(line)
            if goesOn { prompt() }
            return goesOn
        }
    }

    private func run(_ line: String) -> Bool {
        if !console.isInteractive { console.write("> \(TerminalText.safe(line))\n") }
        guard !line.allSatisfy({ $0 == " " || $0 == "\t" }) else { return true }
        let command: ShopCommand
        do {
            command = try ShopCommand(parsing: line)
        } catch {
            console.write(console.style.red("! \(error.message)") + "\n")
            return true
        }
        switch command {
        case .quit:
            return false
        case .help:
            console.write(ShopCommand.reference + "\n")
        default:
            let refusal = shop.run(command)
            draw()
            if let refusal { console.write(console.style.red("! \(TerminalText.safe(refusal))") + "\n") }
        }
        return true
    }

    /// After a restore (on the queue, where the control channel's `perform` ran it): the screen
    /// shows the shop as it was at that step.
    func restored(_ report: RestoreReport) {
        shop.didRestore()
        draw()
        var note = "⏪ the inspector set the shop to step \(report.step) of \(TerminalText.safe(report.trace))"
        if !report.keptValues.isEmpty {
            note +=
                "; kept the live \(report.keptValues.map { TerminalText.safe($0.description) }.joined(separator: ", "))"
        }
        console.write(console.style.yellow(note) + "\n")
        prompt()
    }

    private func draw() {
        if console.isTerminal { console.write("\u{1B}[H\u{1B}[2J") }
        console.write(renderer.render(shop.snapshot))
    }

    private func prompt() {
        if console.isInteractive { console.write("> ") }
    }
}
