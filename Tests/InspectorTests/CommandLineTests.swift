import Testing

@testable import Inspector

@Suite struct CommandLineTests {
    @Test func helpListsEveryCommandAndExitsZero() {
        let console = Console.capturing()
        #expect(Inspector.run(["--help"], console: console) == 0)
        for command in Inspector.commands {
            #expect(console.out.text.contains(command.name))
        }
        #expect(console.out.text.contains("Exit status"))
    }

    @Test func anUnknownCommandIsAUsageError() {
        let console = Console.capturing()
        #expect(Inspector.run(["frobnicate"], console: console) == 2)
        #expect(console.err.text.contains("inspector: unknown command 'frobnicate'"))
        #expect(console.out.text.isEmpty)
    }

    @Test func noArgumentsPrintsUsageToStandardError() {
        let console = Console.capturing()
        #expect(Inspector.run([], console: console) == 2)
        #expect(console.err.text.contains("Usage: inspector COMMAND"))
    }

    @Test func versionNamesTheTraceFormat() {
        let console = Console.capturing()
        #expect(Inspector.run(["--version"], console: console) == 0)
        #expect(console.out.text.contains("trace format 1"))
    }

    @Test func controlCharactersFromTracesAreMadeVisible() {
        let hostile = "title\u{1B}]0;pwned\u{07}\u{9B}2J\r\nnext\u{2028}"
        let safe = TTY.safe(hostile)
        #expect(
            !safe.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028 })
        #expect(safe == "title\\u{1b}]0;pwned\\u{7}\\u{9b}2J\\u{d}\\nnext\\u{2028}")
        #expect(TTY.safe("plain é 😀") == "plain é 😀")
    }

    @Test func colourIsOffWithNoColorOrOffATerminal() {
        #expect(!TTY.wantsColor(1, environment: ["NO_COLOR": ""]))
        let console = Console.capturing()
        #expect(!console.style.enabled)
        #expect(console.style.red("x") == "x")
    }

    @Test(arguments: [("stpe", "step"), ("reprot", "report"), ("valdate", "validate"), ("gaph", "graph")])
    func aMistypedCommandSuggestsTheClosest(typed: String, meant: String) {
        let console = Console.capturing()
        #expect(Inspector.run([typed, "x.jsonl"], console: console) == 2)
        #expect(console.err.text.contains("unknown command '\(typed)' (did you mean '\(meant)'?)"))
        let help = Console.capturing()
        #expect(Inspector.run(["help", typed], console: help) == 2)
        #expect(help.err.text.contains("did you mean '\(meant)'?"))
    }

    @Test func aCommandFarFromEveryOneSuggestsNone() {
        let console = Console.capturing()
        #expect(Inspector.run(["frobnicate"], console: console) == 2)
        #expect(!console.err.text.contains("did you mean"))
    }

    @Test func aMistypedOptionSuggestsTheClosest() throws {
        let trace = try RecordedTrace()
        let stor = inspector(["log", trace.path, "--stor", "CartStore"])
        #expect(stor.status == 2)
        #expect(stor.err.contains("unknown option '--stor' (did you mean '--store'?)"))
        let equals = inspector(["step", trace.path, "--a=3"])
        #expect(equals.err.contains("unknown option '--a=3' (did you mean '--at'?)"))
        let far = inspector(["log", trace.path, "--zzzzzzzz"])
        #expect(far.err.contains("unknown option '--zzzzzzzz'\n"))
    }

    @Test(arguments: ["-v", "--version"])
    func versionHasAShortForm(flag: String) {
        let console = Console.capturing()
        #expect(Inspector.run([flag], console: console) == 0)
        #expect(console.out.text.hasPrefix("inspector \(Inspector.version)"))
    }

    @Test func everyCommandsHelpListsTheHelpOptionOnce() {
        for command in Inspector.commands {
            let console = Console.capturing()
            #expect(Inspector.run([command.name, "-h"], console: console) == 0)
            let text = console.out.text
            #expect(text.ranges(of: "-h, --help").count == 1, "\(command.name)")
            // Listed among the options, before the exit statuses.
            if let options = text.firstRange(of: "Options:"), let help = text.firstRange(of: "-h, --help") {
                #expect(options.lowerBound < help.lowerBound, "\(command.name)")
            } else {
                Issue.record("\(command.name): no Options section")
            }
        }
    }
}
