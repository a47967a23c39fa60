import CommandLineArguments
@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) internal import ToolSupport

/// `sample-app record SCENARIO [-o FILE]`: runs a scenario and writes its trace.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
enum RecordCommand: Subcommand {
    static let name = "record"

    static let help = """
        Usage: sample-app record SCENARIO [-o FILE]

        Runs a scenario (see 'sample-app scenarios') and writes its trace: to FILE, replaced if
        it exists, or to standard output. The run is deterministic: recording a scenario twice
        gives the same events, all but their 'elapsed' times.

        The 'crash' scenario's stores trap on an illegal transition: the process dies with a
        "Wrong state transition" message, and the trace keeps every event up to and including
        the illegal one.

        Options:
          -o, --output FILE   where to write the trace (default: standard output)
          --help, -h          show this help
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let path = try arguments.option("-o", "--output")
        let name = try arguments.positional("SCENARIO (see 'sample-app scenarios')")
        try arguments.finish()
        guard let scenario = Scenario.named(name) else {
            throw UsageError(
                "unknown scenario '\(TerminalText.safe(name))'; the scenarios are: \(Scenario.all.map(\.name).joined(separator: ", "))"
            )
        }
        let recorder = try path.map { try Shop.recorder(path: $0) } ?? Shop.recorder(sink: StandardOutputSink())
        scenario.run(recorder: recorder)
        return 0
    }
}
