import CommandLineArguments

/// One mode of `sample-app`: the shop itself, `record`, `scenarios` or `replay`. Each lives in
/// its own file and is listed in `SampleAppCLI.subcommands`.
protocol Subcommand: SendableMetatype {
    /// The word that selects it.
    static var name: String { get }
    /// The whole `--help` text.
    static var help: String { get }
    /// Runs it; returns the exit status. Throws `UsageError`, `ReplayError` or a recording's
    /// `TraceFileError` for exit status 2.
    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32
}
