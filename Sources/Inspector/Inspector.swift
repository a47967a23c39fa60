import CommandLineArguments

/// The `inspector` command: parses the command line, runs a subcommand, and turns errors into
/// messages and exit statuses. `main.swift` only calls `Inspector.run`.
enum Inspector {
    static let version = "0.1.0"

    /// Every subcommand, in the order `--help` lists them.
    static let commands: [CommandEntry] = [
        Step.entry,
        Show.entry,
        Diff.entry,
        Log.entry,
        Validate.entry,
        Coverage.entry,
        Compare.entry,
        Graph.entry,
        Report.entry,
        When.entry,
        Why.entry,
        Stats.entry,
        Convert.entry,
        MCP.entry,
    ]

    static var usage: String {
        let width = commands.map(\.name.count).max() ?? 0
        let list = commands.map { "  \($0.name + String(repeating: " ", count: width - $0.name.count))  \($0.summary)" }
            .joined(separator: "\n")
        return """
            inspector: step through, diff and validate Rewind traces (JSON Lines of store transitions).

            Usage: inspector COMMAND [ARGUMENTS...] [--help]

            Commands:
            \(list)
              help COMMAND  show the help of a command

            Options:
              --help, -h    show this help (COMMAND --help: that command's)
              --version, -v print the version

            Exit status:
              0  success
              1  a problem was found (validate: an error in a trace; coverage: below --min;
                 compare: the runs differ)
              2  the command line is wrong, or a file cannot be read or is not a trace

            Colours are used only on a terminal, never when NO_COLOR is set.
            """
    }

    /// Runs `inspector` with `arguments` (without the program name); returns the exit status.
    static func run(_ arguments: [String], console: Console) -> Int32 {
        guard let first = arguments.first else {
            console.err.line(usage)
            return ExitStatus.unusable
        }
        switch first {
        case "--help", "-h":
            console.out.line(usage)
            return ExitStatus.success
        case "--version", "-v":
            console.out.line("inspector \(version) (Rewind trace format 1)")
            return ExitStatus.success
        case "help":
            guard arguments.count > 1 else {
                console.out.line(usage)
                return ExitStatus.success
            }
            guard let command = command(named: arguments[1]) else {
                return fail(unknownCommand(arguments[1]), console: console)
            }
            console.out.line(command.help)
            return ExitStatus.success
        default:
            guard let command = command(named: first) else {
                return fail(unknownCommand(first), console: console)
            }
            var rest = Arguments(Array(arguments.dropFirst()))
            if rest.wantsHelp {
                console.out.line(command.help)
                return ExitStatus.success
            }
            do {
                return try command.run(&rest, console)
            } catch let error as UsageError {
                return fail(error, console: console, command: command.name)
            } catch {
                console.err.line("inspector: \(error)")
                return ExitStatus.unusable
            }
        }
    }

    static func command(named name: String) -> CommandEntry? {
        commands.first { $0.name == name }
    }

    /// The error for a command that does not exist, with the closest one when it looks mistyped
    /// (`stpe`: did you mean 'step'?).
    static func unknownCommand(_ name: String) -> UsageError {
        let hint = Suggestion.hint(for: name, among: commands.map(\.name) + ["help", "--help", "--version"])
        return UsageError("unknown command '\(TTY.safe(name))'\(TTY.safe(hint))")
    }

    private static func fail(_ error: UsageError, console: Console, command: String? = nil) -> Int32 {
        console.err.line("inspector: \(error.message)")
        if let command {
            console.err.line("Run 'inspector help \(command)' for usage.")
        } else {
            console.err.line("Run 'inspector --help' for the list of commands.")
        }
        return ExitStatus.unusable
    }
}
