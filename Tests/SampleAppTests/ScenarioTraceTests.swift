import Foundation
import TestSupport
import Testing
import TraceJSON
import TraceQueries
import TraceReader

@testable import SampleApp

/// The traces in the repository are what the app records today, and each scenario does what its
/// summary says.
@Suite struct ScenarioTraceTests {
    static let names = Scenario.all.map(\.name)

    func scenario(_ name: String) throws -> Scenario {
        try #require(Scenario.named(name))
    }

    /// The lines of a recording that a trace on disk should hold: all of them, or for a scenario
    /// whose stores trap, those up to and including the first illegal transition.
    func expectedLines(of scenario: Scenario, _ recording: Recording) throws -> [JSONObject] {
        let objects = try recording.objects
        guard scenario.configuration.policy == .trap, let illegal = try TraceText.illegalTransitions(objects).first
        else {
            return objects
        }
        return Array(objects.prefix { ($0["seq"]?.intValue ?? 0) <= illegal })
    }

    /// The bytes a trace on disk should hold: the whole recording, or for a scenario whose
    /// stores trap, its lines up to and including the first illegal transition.
    func expectedTrace(of scenario: Scenario, _ recording: Recording) throws -> [UInt8] {
        let count = try expectedLines(of: scenario, recording).count
        return Array(recording.sink.lines.prefix(count).map { $0 + "\n" }.joined().utf8)
    }

    /// The committed trace is the golden trace of its scenario (`GoldenTrace`): a difference
    /// fails with the step on both sides, the state diff there and its causes. To re-record
    /// every committed trace after a change meant to change them: `REWIND_RECORD_GOLDEN=1 swift test`.
    @Test(arguments: names)
    func theCommittedTraceIsWhatTheAppRecordsToday(name: String) throws {
        let scenario = try scenario(name)
        let golden = packageRoot.appendingPathComponent(scenario.tracePath).path
        try GoldenTrace.check(try expectedTrace(of: scenario, try Recording(scenario)), against: golden)
    }

    @Test(arguments: names)
    func recordingTwiceGivesTheSameEvents(name: String) throws {
        let scenario = try scenario(name)
        let first = TraceText.comparable(try Recording(scenario).objects)
        let second = TraceText.comparable(try Recording(scenario).objects)
        #expect(first == second)
        #expect(first.count > 4)
    }

    @Test(arguments: names)
    func onlyTheKnownBadScenariosBreakAMachine(name: String) throws {
        let scenario = try scenario(name)
        let illegal = try TraceText.illegalTransitions(try Recording(scenario).objects)
        #expect(illegal.isEmpty != scenario.breaksAMachine, "illegal transitions at seq \(illegal)")
        #expect(scenario.tracePath.hasPrefix(scenario.isKnownBad ? "traces/invalid/" : "traces/"))
    }

    @Test(arguments: names)
    func everyCommandOfAScenarioIsAccepted(name: String) throws {
        let recording = try Recording(try scenario(name))
        #expect(recording.refusals.allSatisfy { $0 == nil }, "refused: \(recording.refusals.compactMap { $0 })")
    }

    @Test(arguments: names)
    func inspectorValidationPassesTheValidTracesAndFlagsTheKnownBadOnes(name: String) throws {
        let scenario = try scenario(name)
        let url = packageRoot.appendingPathComponent(scenario.tracePath)
        let bytes = try #require(FileManager.default.contents(atPath: url.path), "\(scenario.tracePath) is missing")
        let report = TraceValidator().validate(bytes: [UInt8](bytes), file: scenario.tracePath)
        if scenario.breaksAMachine {
            #expect(report.problems.map(\.kind.rawValue) == ["illegal"], "\(report.problems)")
            #expect(report.problems.first?.store == "CatalogStore")
        } else if scenario.breaksARule {
            // The rules the app's machines declare, written in the header by the recorder.
            #expect(report.problems.map(\.kind.rawValue) == ["unresolved"], "\(report.problems)")
        } else {
            #expect(report.problems.isEmpty, "\(report.problems)")
        }
    }

    @Test func everyTraceAtTheTopOfTracesIsAValidScenario() throws {
        let folder = packageRoot.appendingPathComponent("traces")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jsonl") }
        let valid = Set(Scenario.all.filter { !$0.isKnownBad }.map { "\($0.name).jsonl" })
        #expect(Set(files) == valid)
    }

    // MARK: What each scenario shows

    func actions(_ objects: [JSONObject]) -> [String] {
        TraceText.transitions(objects).map { "\($0["store"]?.stringValue ?? "?").\($0["action"]?.stringValue ?? "?")" }
    }

    @Test func theHappyPathBrowsesSavesForLaterAddsChecksOutAndPays() throws {
        let recording = try Recording(Scenario.happyPath)
        let objects = try recording.objects
        #expect(
            actions(objects) == [
                "CatalogStore.toLoading", "CatalogStore.didLoad", "CartStore.catalogDidLoad", "Wishlist.save",
                "CartStore.add", "Wishlist.save", "CartStore.add", "Wishlist.remove",
                "CheckoutStore.checkout", "CheckoutStore.didCalculate", "CheckoutStore.pay", "CheckoutStore.didPay",
            ])
        // The wishlist, an @Observable model recorded through a StoreRecording, beside the stores.
        let wishlist = objects.filter { $0["store"]?.stringValue == "Wishlist" }
        #expect(wishlist.first?["type"]?.stringValue == "register")
        #expect(
            wishlist.last?["state"]?.objectValue?["skus"]?.arrayValue?.compactMap(\.stringValue) == ["STICKERS"])
        #expect(recording.screens.last?.screen.contains("Paid $55.13. Thank you!") == true)
    }

    @Test func theFlakyNetworkFailsThenRetriesAndTheCartReportsTheUnknownSKU() throws {
        let objects = try Recording(Scenario.flakyNetwork).objects
        let names = actions(objects)
        let failed = try #require(names.firstIndex(of: "CatalogStore.didFail"))
        let loaded = try #require(names.firstIndex(of: "CatalogStore.didLoad"))
        #expect(failed < loaded)
        #expect(names[failed + 1] == "CatalogStore.toLoading")
        let transitions = TraceText.transitions(objects)
        #expect(transitions[failed + 1]["from"]?.stringValue == "failed")
        let reaction = transitions[loaded + 1]
        #expect(reaction["action"]?.stringValue == "catalogDidLoad")
        #expect(reaction["cause"]?.intValue == transitions[loaded]["seq"]?.intValue)
        #expect(reaction["state"]?["notFound"] == .array([.string("1234")]))
        #expect(names.last == "CheckoutStore.didPay")
    }

    @Test func undoRestoresCartsAndTheCheckoutFollows() throws {
        let objects = try Recording(Scenario.undo).objects
        let names = actions(objects)
        #expect(names.filter { $0 == "CartStore.undo" }.count == 3)
        let declined = try #require(names.firstIndex(of: "CheckoutStore.didFail"))
        #expect(names[declined + 1] == "CartStore.undo")
        #expect(names[declined + 2] == "CheckoutStore.cartDidChange")
        #expect(names.last == "CheckoutStore.didPay")
    }

    @Test func theDoubleRefreshRunsToLoadingFromLoadingAndGoesOn() throws {
        let objects = try Recording(Scenario.doubleRefresh).objects
        let illegal = try TraceText.illegalTransitions(objects)
        #expect(illegal.count == 1)
        let event = try #require(objects.first { $0["seq"]?.intValue == illegal.first })
        #expect(event["action"]?.stringValue == "toLoading")
        #expect(event["from"]?.stringValue == "loading" && event["to"]?.stringValue == "loading")
        #expect(event["changed"]?.boolValue == false)
        #expect(actions(objects).last == "CartStore.add")
    }

    @Test func quittingWhilePayingEndsTheCheckoutPayingAgainstItsRule() throws {
        let objects = try Recording(Scenario.quitWhilePaying).objects
        let last = try #require(TraceText.transitions(objects).last)
        #expect(last["store"]?.stringValue == "CheckoutStore" && last["to"]?.stringValue == "paying")
        // The rules the app's machines declare, in the header under their pinned names.
        let rules = objects.first?["rules"]?.arrayValue ?? []
        #expect(
            rules == [
                .object([
                    "store": .string("CatalogStore"), "case": .string("loading"),
                    "within": .object(["events": .number("3")]),
                ]),
                .object([
                    "store": .string("CheckoutStore"), "notAtEnd": .array([.string("calculating"), .string("paying")]),
                ]),
            ], "\(rules)")
    }

    @Test func theCrashScenarioTrapsOnTheSecondRefresh() throws {
        #expect(Scenario.crash.configuration.policy == .trap)
        let objects = try expectedLines(of: Scenario.crash, try Recording(Scenario.crash))
        let last = try #require(objects.last)
        #expect(last["action"]?.stringValue == "toLoading")
        #expect(last["from"]?.stringValue == "loading")
        #expect(actions(objects).contains("CartStore.add"))
    }
}
