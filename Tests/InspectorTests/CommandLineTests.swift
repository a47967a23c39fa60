@testable import Inspector
import Testing

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

    @Test func argumentsTakeOptionsAnywhere() throws {
        var arguments = Arguments(["a.jsonl", "--at", "5", "--strict", "b.jsonl", "--format=json", "--", "--odd"])
        let strict = arguments.flag("--strict")
        #expect(strict)
        let at = try arguments.intOption("--at")
        let format = try arguments.choice("--format", among: ["text", "json"])
        #expect(at == 5)
        #expect(format == "json")
        #expect(arguments.remainingPositionals() == ["a.jsonl", "b.jsonl", "--odd"])
        try arguments.finish()
    }

    @Test func badOptionValuesAreReported() {
        #expect(throws: UsageError.self) {
            var arguments = Arguments(["--at", "x"])
            _ = try arguments.intOption("--at")
        }
        #expect(throws: UsageError.self) {
            var arguments = Arguments(["--format", "xml"])
            _ = try arguments.choice("--format", among: ["text"])
        }
        #expect(throws: UsageError.self) {
            var arguments = Arguments(["--store"])
            _ = try arguments.option("--store")
        }
    }

    @Test func leftoverArgumentsAreRejected() {
        let unknown = Arguments(["--bogus"]), extra = Arguments(["extra"]), dashes = Arguments(["--"])
        #expect(throws: UsageError.self) { try unknown.finish() }
        #expect(throws: UsageError.self) { try extra.finish() }
        #expect(throws: Never.self) { try dashes.finish() }
    }

    @Test func controlCharactersFromTracesAreMadeVisible() {
        let hostile = "title\u{1B}]0;pwned\u{07}\u{9B}2J\r\nnext\u{2028}"
        let safe = TTY.safe(hostile)
        #expect(!safe.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028 })
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
