import CommandLineArguments
@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) internal import ToolSupport

/// The `sample-app` command: picks the mode, and turns errors into messages and exit statuses.
/// `main.swift` only calls `run`.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
enum SampleAppCLI {
    /// Every subcommand; the shop itself runs when the first argument names none of them.
    static let subcommands: [any Subcommand.Type] = [RecordCommand.self, ScenariosCommand.self, ReplayCommand.self]

    static let usage = """
        sample-app: a terminal shop built on Rewind's recorded stores.

        Usage:
          sample-app [--trace FILE] [--seed N]    open the shop and type commands
                     [--control SOCKET]       (and let 'inspector step --attach' step it)
          sample-app record SCENARIO [-o FILE]    run a scenario and write its trace
          sample-app scenarios                    list the scenarios
          sample-app replay TRACE [--at N]        draw the screens of a recorded run
          sample-app help COMMAND                 the help of one of them

        Try it:
          sample-app                          then type: add SHIRT 2, checkout, pay, wait, quit
          sample-app record undo -o undo.jsonl
          sample-app replay undo.jsonl --at 16
          inspector validate traces/invalid/double-refresh.jsonl

        Exit status: 0 on success, 2 when the command line or a file cannot be used.
        """

    /// Runs `sample-app` with `arguments` (without the program name); returns the exit status.
    static func run(_ arguments: [String], console: Console) -> Int32 {
        let command: any Subcommand.Type
        var rest: Arguments
        switch arguments.first {
        case "help" where arguments.count > 1:
            guard let match = subcommands.first(where: { $0.name == arguments[1] }) else {
                return fail(
                    UsageError("no command is called '\(TerminalText.safe(arguments[1]))'"), help: "sample-app --help",
                    console: console)
            }
            console.write(match.help + "\n")
            return 0
        case "--help", "-h", "help":
            console.write(usage + "\n")
            return 0
        case let first? where !first.hasPrefix("-"):
            guard let match = subcommands.first(where: { $0.name == first }) else {
                return fail(
                    UsageError("unknown command '\(TerminalText.safe(first))'"), help: "sample-app --help",
                    console: console)
            }
            command = match
            rest = Arguments(Array(arguments.dropFirst()))
        default:
            command = ShopMode.self
            rest = Arguments(arguments)
        }
        if rest.wantsHelp {
            console.write(command.help + "\n")
            return 0
        }
        let helpCommand = command is ShopMode.Type ? "sample-app --help" : "sample-app \(command.name) --help"
        do {
            return try command.run(&rest, console: console)
        } catch let error as UsageError {
            return fail(error, help: helpCommand, console: console)
        } catch {
            console.writeError("sample-app: \(TerminalText.safe(String(describing: error)))\n")
            return 2
        }
    }

    private static func fail(_ error: UsageError, help: String, console: Console) -> Int32 {
        console.writeError("sample-app: \(error.message)\nRun '\(help)' for usage.\n")
        return 2
    }
}
