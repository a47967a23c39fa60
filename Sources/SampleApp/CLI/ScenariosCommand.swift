import CommandLineArguments

/// `sample-app scenarios`: lists the scenarios, one line each.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
enum ScenariosCommand: Subcommand {
    static let name = "scenarios"

    static let help = """
        Usage: sample-app scenarios

        Lists the scenarios that 'sample-app record SCENARIO' runs, one per line: its name and
        what happens in it.

        Options:
          --help, -h   show this help
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        try arguments.finish()
        let width = Scenario.all.map(\.name.count).max() ?? 0
        for scenario in Scenario.all {
            console.write(
                scenario.name + String(repeating: " ", count: width - scenario.name.count + 2) + scenario.summary + "\n"
            )
        }
        return 0
    }
}
