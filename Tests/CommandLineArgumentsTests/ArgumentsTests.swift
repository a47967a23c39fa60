import Testing

@testable import CommandLineArguments

/// The command-line parsing that `inspector` and `sample-app` share.
@Suite struct ArgumentsTests {
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
        let unknown = Arguments(["--bogus"])
        let extra = Arguments(["extra"])
        let dashes = Arguments(["--"])
        #expect(throws: UsageError.self) { try unknown.finish() }
        #expect(throws: UsageError.self) { try extra.finish() }
        #expect(throws: Never.self) { try dashes.finish() }
    }

    @Test func optionsMayHaveSeveralNamesAndTheLastOneWins() throws {
        var arguments = Arguments(["-o", "a.jsonl", "run", "--output=b.jsonl"])
        #expect(try arguments.option("-o", "--output") == "b.jsonl")
        #expect(try arguments.positional("MODE") == "run")
        try arguments.finish()
        var ranged = Arguments(["--seed", "70000"])
        #expect(throws: UsageError("--seed needs a whole number from 0 to 65535, not '70000'")) {
            _ = try ranged.intOption("--seed", in: 0...65535)
        }
    }

    @Test func aRepeatableOptionGivesEveryValueInOrder() throws {
        var arguments = Arguments(["--ignore", "a", "x.jsonl", "--ignore=b", "--ignore", "c"])
        #expect(try arguments.options("--ignore") == ["a", "b", "c"])
        #expect(try arguments.positional("TRACE") == "x.jsonl")
        try arguments.finish()
        var none = Arguments([])
        #expect(try none.options("--ignore") == [])
        var dangling = Arguments(["--ignore"])
        #expect(throws: UsageError.self) { try dangling.options("--ignore") }
    }

    /// A value from the command line is repeated in the message with its control characters
    /// escaped, so a pasted escape sequence cannot reach the terminal through an error.
    @Test func messagesShowValuesTerminalSafe() {
        let escape = "\u{1B}[2J"
        var choice = Arguments(["--format", escape])
        #expect(throws: UsageError("--format must be one of text, json, not '\\u{1b}[2J'")) {
            _ = try choice.choice("--format", among: ["text", "json"])
        }
        var number = Arguments(["--at", escape])
        #expect(throws: UsageError("--at needs a whole number of at least 0, not '\\u{1b}[2J'")) {
            _ = try number.intOption("--at", atLeast: 0)
        }
        var positional = Arguments([escape])
        #expect(throws: UsageError("STEP must be a whole number of at least 0, not '\\u{1b}[2J'")) {
            _ = try positional.intPositional("STEP")
        }
        let unknown = Arguments(["--x" + escape])
        #expect(throws: UsageError("unknown option '--x\\u{1b}[2J'")) { try unknown.finish() }
    }

    @Test func anUnknownOptionNamesTheClosestKnownOne() throws {
        var arguments = Arguments(["--stor", "x", "file"])
        _ = try arguments.option("--store")
        _ = arguments.flag("--problems")
        #expect(throws: UsageError("unknown option '--stor' (did you mean '--store'?)")) { try arguments.finish() }
        var swapped = Arguments(["--porblems"])
        _ = swapped.flag("--problems")
        #expect(throws: UsageError("unknown option '--porblems' (did you mean '--problems'?)")) {
            try swapped.finish()
        }
    }

    @Test func suggestionsNeedToBeClose() {
        #expect(Suggestion.closest(to: "stpe", among: ["show", "step", "stats"]) == "step")
        #expect(Suggestion.closest(to: "--stor", among: ["--store", "--strict"]) == "--store")
        #expect(Suggestion.closest(to: "xyz", among: ["step", "show"]) == nil)
        #expect(Suggestion.closest(to: "st", among: ["step", "stats"]) == nil)
        #expect(Suggestion.editDistance(Array("abc"), Array("acb")) == 1)
        #expect(Suggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
    }
}
