import CommandLineArguments

/// `sample-app scenarios`: lists the scenarios, one line each.
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
