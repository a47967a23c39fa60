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
    /// Makes the whole `--help` text. Made only when asked for: building every command's help
    /// (its interpolations, the `-h` line inserted) was a tenth of the time a small command took
    /// before its own work began.
    let makeHelp: @Sendable () -> String
    let run: @Sendable (inout Arguments, Console) throws -> Int32

    /// The whole `--help` text.
    var help: String { makeHelp() }
}

extension Command {
    /// This command's registry entry.
    static var entry: CommandEntry {
        CommandEntry(
            name: name, summary: summary, makeHelp: { withHelpOption(help) },
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

/// `help` with `-h, --help` listed among its options: at the end of its `Options:` paragraph, or
/// in a paragraph of its own before the exit statuses when it has no options.
func withHelpOption(_ help: String) -> String {
    let line = "  -h, --help       show this help"
    var lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if let options = lines.firstIndex(where: { $0.hasPrefix("Options:") }) {
        var end = options + 1
        while end < lines.count && !lines[end].trimmingCharacters(in: " ").isEmpty { end += 1 }
        lines.insert(line, at: end)
    } else if let status = lines.firstIndex(where: { $0.hasPrefix("Exit status") }) {
        lines.insert(contentsOf: ["Options:", line, ""], at: status)
    } else {
        lines.append(contentsOf: ["", "Options:", line])
    }
    return lines.joined(separator: "\n")
}
