import CommandLineArguments

/// One `inspector` subcommand. Each lives in its own file in this folder and is listed in
/// `Inspector.commands`.
protocol Command: SendableMetatype {
    /// The word that selects it: `validate`.
    static var name: String { get }
    /// One line for `inspector --help`.
    static var summary: String { get }
    /// The whole `--help` text: usage, what it does, options, exit statuses.
    static var help: String { get }
    /// Runs the command; returns the exit status. Throws `UsageError` or `FileError` for exit 2.
    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32
}

/// A command as the registry holds it: its texts and how to run it.
struct CommandEntry: Sendable {
    let name: String
    let summary: String
    let help: String
    let run: @Sendable (inout Arguments, Console) throws -> Int32
}

extension Command {
    /// This command's registry entry.
    static var entry: CommandEntry {
        CommandEntry(
            name: name, summary: summary, help: help,
            run: { arguments, console in
                try run(&arguments, console: console)
            })
    }
}

/// The exit-status paragraph most commands end their help with.
let standardExitStatuses = """
    Exit status:
      0  success
      2  the command line is wrong, or a file cannot be read or is not a trace
    """
