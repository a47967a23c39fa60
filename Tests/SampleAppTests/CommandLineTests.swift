import Foundation
import Testing

@testable import SampleApp

@Suite struct CommandLineTests {
    @Test(arguments: [
        ["--help"], ["-h"], ["help"], ["record", "--help"], ["scenarios", "-h"], ["replay", "--help"],
        ["help", "replay"], ["--trace", "x.jsonl", "--help"],
    ])
    func everyModeHasHelp(arguments: [String]) {
        let result = runApp(arguments)
        #expect(result.status == 0)
        #expect(result.output.contains("Usage"))
        #expect(result.errors.isEmpty)
    }

    @Test(arguments: [
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["help", "frobnicate"], "no command is called 'frobnicate'"),
        (["record"], "missing SCENARIO"),
        (
            ["record", "moon-landing"],
            "unknown scenario 'moon-landing'; the scenarios are: happy-path, flaky-network, undo, double-refresh, crash"
        ),
        (["record", "undo", "extra"], "unexpected argument 'extra'"),
        (["record", "undo", "-o"], "-o needs a value"),
        (["scenarios", "--all"], "unknown option '--all'"),
        (["replay"], "missing TRACE"),
        (["--seed", "-3"], "--seed needs a whole number"),
        (["--color"], "unknown option '--color'"),
        (["\u{1B}[31m"], "unknown command '\\u{1b}[31m'"),
    ])
    func aWrongCommandLineIsExplainedWithStatus2(arguments: [String], message: String) {
        let result = runApp(arguments)
        #expect(result.status == 2)
        #expect(result.errors.contains(message), "\(result.errors)")
        #expect(result.errors.contains("for usage"))
        #expect(!result.errors.contains("\u{1B}"))
    }

    @Test func scenariosAreListedOneLineEach() {
        let result = runApp(["scenarios"])
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == Scenario.all.count)
        for (line, scenario) in zip(lines, Scenario.all) {
            #expect(line.hasPrefix(scenario.name + " "))
            #expect(line.hasSuffix(scenario.summary))
        }
    }

    @Test func recordWritesTheScenariosTraceAndReplacesAnOldFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("run.jsonl")
        try "old".write(toFile: path, atomically: true, encoding: .utf8)
        let result = runApp(["record", "flaky-network", "-o", path])
        #expect(result.status == 0, "\(result.errors)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let written = TraceText.comparable(try text.split(separator: "\n").map { try TraceText.object(String($0)) })
        #expect(written == TraceText.comparable(try Recording(Scenario.flakyNetwork).objects))
    }

    @Test func recordIntoAFolderThatDoesNotExistSaysSo() throws {
        let folder = try TemporaryFolder()
        let result = runApp(["record", "undo", "--output", folder.path("missing/run.jsonl")])
        #expect(result.status == 2)
        #expect(result.errors.contains("missing/run.jsonl: cannot create the trace"))
    }

    // MARK: The shop, interactive

    @Test func theShopDrawsAfterEachCommandAndEndsAtQuit() {
        let result = runApp([], input: "add shirt 2\nwait\ncheckout\npay\nwait\nquit\nadd HAT\n")
        #expect(result.status == 0)
        let screens = result.output.components(separatedBy: "REWIND SHOP\n").dropFirst()
        #expect(screens.count == 6)
        #expect(screens.last?.contains("Paid $42.00. Thank you!") == true)
        #expect(!result.output.contains("add HAT\n"))
    }

    @Test func mistakesAndRefusalsAreExplainedAndChangeNothing() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("session.jsonl")
        let result = runApp(["--trace", path], input: "dance\nadd\npay\n\nhelp\n")
        #expect(result.status == 0)
        #expect(result.output.contains("! unknown command 'dance'; type 'help' for the list"))
        #expect(result.output.contains("! usage: add SKU [QTY]"))
        #expect(result.output.contains("! there is no total yet: type 'checkout' first"))
        #expect(result.output.contains(ShopCommand.reference))
        let events = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(events.count == 5)  // three stores and the wishlist register, the catalog starts loading
    }

    /// As the README tells an app to: one line on standard error with the trace's absolute path
    /// (the screens on standard output unchanged); on a terminal, whose screen each draw clears,
    /// again when the shop closes.
    @Test func theShopSaysWhereItRecordsOnStandardError() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("sub"), withIntermediateDirectories: true)
        let given = folder.path("sub") + "/../session.jsonl"
        let absolute = URL(fileURLWithPath: folder.path("session.jsonl")).resolvingSymlinksInPath().path
        let piped = runApp(["--trace", given], input: "quit\n")
        #expect(piped.status == 0)
        #expect(piped.errors == "Recording to \(absolute)\n")
        #expect(!piped.output.contains("Recording to"))
        #expect(FileManager.default.fileExists(atPath: absolute))
        let onATerminal = runApp(["--trace", given], input: "quit\n", interactive: true)
        #expect(onATerminal.errors == "Recording to \(absolute)\n" + "Recording to \(absolute)\n")
        #expect(runApp([], input: "quit\n").errors.isEmpty)  // no trace, nothing said
    }

    @Test func aRefreshWhileLoadingIsReachableInteractivelyAndRecorded() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("session.jsonl")
        #expect(runApp(["--trace", path], input: "refresh\nwait\n").status == 0)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let objects = try text.split(separator: "\n").map { try TraceText.object(String($0)) }
        #expect(try TraceText.illegalTransitions(objects).count == 1)
    }

    @Test func theSeedChangesTheNetwork() {
        let outputs = (1...6).map { seed in runApp(["--seed", String(seed)], input: "wait\n").output }
        #expect(outputs.contains { $0.contains("Could not load the catalog") })
        #expect(outputs.contains { $0.contains("STICKERS") })
    }

    @Test func noInputCrashesTheShop() {
        var generator = SeededGenerator(seed: 9)
        let words = [
            "add", "remove", "refresh", "checkout", "pay", "undo", "wait", "SHIRT", "HAT", "1234", "99", "-1", "",
            "\u{1B}", "é", "0",
        ]
        var input = ""
        for _ in 0..<400 {
            let count = generator.next(in: 0...3)
            input +=
                (0..<count).map { _ in words[generator.next(in: 0...(words.count - 1))] }.joined(separator: " ") + "\n"
        }
        let result = runApp(["--seed", "5"], input: input)
        #expect(result.status == 0)
        #expect(!result.output.contains("\u{1B}"))
    }
}
