import CommandLineArguments
import Foundation
import Testing
import TraceReader

@testable import SampleApp

/// `sample-app replay` draws each recorded step exactly as the app drew it.
@Suite struct ReplayTests {
    /// A scenario recorded to a file, with the screens drawn while recording.
    func recorded(_ name: String, in folder: TemporaryFolder) throws -> (path: String, recording: Recording) {
        let recording = try Recording(try #require(Scenario.named(name)))
        let path = folder.path("\(name).jsonl")
        try Data(recording.sink.data).write(to: URL(fileURLWithPath: path))
        return (path, recording)
    }

    @Test(arguments: Scenario.all.map(\.name))
    func replayAtEachStepDrawsTheScreenTheAppDrewThen(name: String) throws {
        let folder = try TemporaryFolder()
        let (path, recording) = try recorded(name, in: folder)
        #expect(recording.screens.count == (Scenario.named(name)?.commands.count ?? 0) + 1)
        for (step, screen) in recording.screens {
            let result = runApp(["replay", path, "--at", String(step)])
            #expect(result.status == 0, "step \(step): \(result.errors)")
            #expect(result.output == screen, "step \(step) of \(name) is drawn differently")
        }
    }

    @Test func replayDecodesTheRecordedStatesIntoTheAppsTypes() throws {
        let folder = try TemporaryFolder()
        let (path, _) = try recorded("undo", in: folder)
        let trace = try TraceFile(path: path)
        let declined = try #require(
            (0..<trace.eventCount).compactMap(trace.event(at:)).first { $0.action == "didFail" })
        let snapshot = try ShopSnapshot(trace, atStep: declined.seq)
        #expect(snapshot.cart.quantity(of: "SHIRT") == 6)
        guard case .failed(let totals, let reason) = snapshot.checkout else {
            Issue.record("expected a failed checkout, got \(snapshot.checkout)")
            return
        }
        #expect(totals.total == Money(cents: 126_00))
        #expect(reason.hasPrefix("card declined"))
        #expect(try ShopSnapshot(trace, atStep: 0) == ShopSnapshot())
    }

    @Test func withoutAtItDrawsEveryStepUnderItsEvent() throws {
        let folder = try TemporaryFolder()
        let (path, recording) = try recorded("happy-path", in: folder)
        let result = runApp(["replay", path])
        #expect(result.status == 0)
        let last = recording.sink.lines.count - 1
        let headings = result.output.split(separator: "\n").filter { $0.hasPrefix("-- step ") }
        #expect(headings.count == last + 1)
        #expect(headings.first == "-- step 0 of \(last): before any event --")
        #expect(headings.contains("-- step 9 of \(last): CartStore add {\"sku\":\"SHIRT\",\"quantity\":2} --"))
        #expect(
            headings.contains("-- step 7 of \(last): CartStore catalogDidLoad {\"products\":4} (caused by step 6) --"))
        #expect(headings.contains("-- step 8 of \(last): Wishlist save {\"sku\":\"HAT\"} --"))
        #expect(result.output.hasSuffix(recording.screens.last?.screen ?? "-"))
    }

    @Test func onATerminalItStepsForwardAndBackOnKeys() throws {
        let folder = try TemporaryFolder()
        let (path, _) = try recorded("double-refresh", in: folder)
        let result = runApp(["replay", path], input: "\n\n\np\n99\nq\n", interactive: true)
        #expect(result.status == 0)
        let headings = result.output.components(separatedBy: "\u{1B}[H\u{1B}[2J").compactMap {
            $0.split(separator: "\n").first
        }
        let steps = headings.compactMap { $0.split(separator: " ").dropFirst(2).first.flatMap { Int($0) } }
        #expect(steps == [0, 1, 2, 3, 2, 9])
    }

    // MARK: Traces it cannot use

    func write(_ text: String, in folder: TemporaryFolder) throws -> String {
        let path = folder.path("trace.jsonl")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let header = #"{"type":"header","format":"rewind-trace","version":1,"app":"SampleApp","machines":{}}"#

    static let unusableTraces: [(text: String, message: String)] = [
        ("", ":1: the file is empty"),
        ("hello\n", ":1: line 1 is not JSON"),
        ("[1,2]\n", ":1: line 1 is not a trace header"),
        (#"{"type":"header","format":"other","version":1}"# + "\n", ":1: line 1 is not a trace header"),
        (
            #"{"type":"header","format":"rewind-trace","version":3,"app":"SampleApp","machines":{}}"# + "\n",
            ":1: unknown trace version 3"
        ),
        (
            #"{"type":"header","format":"rewind-trace","version":1,"app":"Other","machines":{}}"# + "\n",
            ":1: recorded by 'Other', not by sample-app"
        ),
        (
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{}}"# + "\n",
            ":1: recorded by an app that did not give its name"
        ),
        (
            header + "\n"
                + #"{"type":"register","seq":1,"store":"CartStore","state":{"lines":[{"sku":"A","quantity":"two"}],"notFound":[]}}"#
                + "\n",
            ":2: the state of CartStore is not a CartState this app can read (at lines[0].quantity"
        ),
        (
            header + "\n" + #"{"type":"register","seq":1,"store":"CatalogStore","case":"idle","state":{"exploded":{}}}"#
                + "\n",
            ":2: the state of CatalogStore is not a CatalogState"
        ),
    ]

    @Test(arguments: unusableTraces)
    func aTraceItCannotUseGetsAClearMessageAndStatus2(text: String, message: String) throws {
        let folder = try TemporaryFolder()
        let path = try write(text, in: folder)
        let result = runApp(["replay", path, "--at", "1"])
        #expect(result.status == 2)
        #expect(result.errors.contains(message), "\(result.errors)")
        #expect(result.output.isEmpty)
    }

    @Test func aStepPastTheEndIsAUsageError() throws {
        let folder = try TemporaryFolder()
        let (path, recording) = try recorded("happy-path", in: folder)
        let last = recording.sink.lines.count - 1
        let result = runApp(["replay", path, "--at", String(last + 1)])
        #expect(result.status == 2)
        #expect(result.errors.contains("--at \(last + 1) is past the end of \(path): its steps are 0 to \(last)"))
        #expect(runApp(["replay", path, "--at", "-1"]).status == 2)
        #expect(runApp(["replay", path, "--at", "x"]).status == 2)
    }

    @Test func aMissingFileOrAFolderIsNamed() throws {
        let folder = try TemporaryFolder()
        let missing = runApp(["replay", folder.path("nope.jsonl")])
        #expect(missing.status == 2)
        #expect(missing.errors.contains("nope.jsonl: no such file"))
        let directory = runApp(["replay", folder.url.path])
        #expect(directory.status == 2)
        #expect(directory.errors.contains("is a directory"))
    }

    @Test func linesThatAreNotEventsAreLeftOutWithAWarning() throws {
        let folder = try TemporaryFolder()
        let (_, recording) = try recorded("happy-path", in: folder)
        var lines = recording.sink.lines
        lines.insert("{oops", at: 3)
        let path = try write(lines.joined(separator: "\n") + "\n", in: folder)
        for (step, screen) in recording.screens {
            let result = runApp(["replay", path, "--at", String(step)])
            #expect(result.status == 0)
            #expect(result.output == screen)
            #expect(result.errors.contains(":4: malformed: "))
        }
    }

    @Test func aLastLineCutShortByACrashIsLeftOutWithAWarning() throws {
        let folder = try TemporaryFolder()
        let (_, recording) = try recorded("happy-path", in: folder)
        let text = recording.sink.lines.prefix(6).joined(separator: "\n") + "\n" + #"{"type":"transition","seq":6,"sto"#
        let path = try write(text, in: folder)
        let result = runApp(["replay", path, "--at", "5"])
        #expect(result.status == 0)
        #expect(result.errors.contains(":7: truncated: "))
        #expect(result.output == recording.screens.first { $0.step == 5 }?.screen)
        #expect(runApp(["replay", path, "--at", "6"]).status == 2)
    }

    @Test func unknownEventTypesAndKeysAreSkipped() throws {
        let folder = try TemporaryFolder()
        let text =
            Self.header + "\n"
            + #"{"type":"note","seq":1,"text":"hi"}"# + "\n\n"
            + #"{"type":"register","seq":2,"store":"Other","state":[1]}"# + "\n"
            + #"{"type":"register","seq":3,"store":"CatalogStore","case":"failed","state":{"failed":{"message":"down"}},"extra":true}"#
            + "\r\n"
        let path = try write(text, in: folder)
        let result = runApp(["replay", path, "--at", "3"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("Could not load the catalog: down."))
    }

    @Test func aHugeSeqDoesNotMakeItDrawForever() throws {
        let folder = try TemporaryFolder()
        let text =
            Self.header + "\n"
            + #"{"type":"register","seq":9000000000000000000,"store":"CartStore","state":{"lines":[],"notFound":[]}}"#
            + "\n"
        let path = try write(text, in: folder)
        let result = runApp(["replay", path])
        #expect(result.status == 0)
        #expect(
            result.output.split(separator: "\n").filter { $0.hasPrefix("-- step ") } == [
                "-- step 0 of 9000000000000000000: before any event --",
                "-- step 9000000000000000000 of 9000000000000000000: CartStore starts --",
            ])
    }

    @Test func arbitraryBytesNeverCrashIt() throws {
        var generator = SeededGenerator(seed: 42)
        let folder = try TemporaryFolder()
        let path = folder.path("noise.jsonl")
        let valid = Array(try Recording(Scenario.happyPath).sink.data)
        for round in 0..<200 {
            var bytes = valid
            for _ in 0...(round % 8) {
                let index = Int(generator.next() % UInt64(bytes.count))
                bytes[index] = UInt8(truncatingIfNeeded: generator.next())
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let result = runApp(["replay", path, "--at", String(round % 14)])
            #expect(result.status == 0 || result.status == 2)
            #expect(!result.output.unicodeScalars.contains { $0.value == 0x1B })
        }
    }
}
