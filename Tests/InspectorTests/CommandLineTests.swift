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
}
