import CommandLineArguments
@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) internal import ToolSupport

/// `sample-app [--trace FILE] [--seed N]`: the shop, interactive. It draws the screen, reads one
/// command per line, runs it, and draws again.
enum ShopMode: Subcommand {
    static let name = "shop"

    static let help = """
        Usage: sample-app [--trace FILE] [--seed N]

        Opens the shop: draws the catalog, the cart, the checkout and a status line, then reads
        one command per line and draws the screen again after each.

        \(ShopCommand.reference)

        The catalog comes from a fake network whose delays (1-3 ticks) and failures (1 in 4) are
        decided by the seed, so the same seed and commands give the same run. A 'refresh' while
        the catalog is still loading is recorded as toLoading from loading, an illegal transition
        that 'inspector validate' reports: try 'refresh' as the first command.

        Options:
          --trace FILE   record every action to FILE (replaced if it exists)
          --seed N       the fake network's seed (default 2)
          --help, -h     show this help
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let path = try arguments.option("--trace")
        let seed = try arguments.intOption("--seed", in: 0...Int.max)
        try arguments.finish()
        var configuration = ShopConfiguration()
        if let seed { configuration.seed = UInt64(seed) }
        let recorder = try path.map { try Shop.recorder(path: $0) }
        let shop = Shop(configuration: configuration, recorder: recorder)
        let renderer = ScreenRenderer(style: console.style)
        shop.launch()
        draw(shop, renderer, console)
        while true {
            if console.isInteractive { console.write("> ") }
            guard let line = console.readLine() else {
                if console.isInteractive { console.write("\n") }
                break
            }
            if !console.isInteractive { console.write("> \(TerminalText.safe(line))\n") }
            guard !line.allSatisfy({ $0 == " " || $0 == "\t" }) else { continue }
            let command: ShopCommand
            do {
                command = try ShopCommand(parsing: line)
            } catch {
                console.write(console.style.red("! \(error.message)") + "\n")
                continue
            }
            switch command {
            case .quit:
                return 0
            case .help:
                console.write(ShopCommand.reference + "\n")
            default:
                let refusal = shop.run(command)
                draw(shop, renderer, console)
                if let refusal { console.write(console.style.red("! \(TerminalText.safe(refusal))") + "\n") }
            }
        }
        return 0
    }

    private static func draw(_ shop: Shop, _ renderer: ScreenRenderer, _ console: Console) {
        if console.isTerminal { console.write("\u{1B}[H\u{1B}[2J") }
        console.write(renderer.render(shop.snapshot))
    }
}
