import Foundation
import TestSupport
import Testing
import TraceQueries

@testable import SampleApp

/// README.md's "Replaying a recorded session": the test it shows is this one, word for word, and
/// it replays the sample app's traces (run from the package's root, as `swift test` is).
@Suite struct ReadmeReplayTests {
    // Example: README.md, "Replaying a recorded session"
    @Test(arguments: ["traces/happy-path.jsonl", "traces/flaky-network.jsonl"])  // one line per session
    func theSessionReplaysExactly(path: String) throws {
        // The trace's header pins the shop's machines: the replay's recorder declares the same.
        let replay = try TraceReplay(trace: path, machines: Shop.machines)
        let outcome = try replay.run { recorder in
            // The app's own stores on the replay's recorder, with its fakes injected (as the sample
            // app's Sources/SampleApp/Replay/ShopReplay.swift does, for every action it has).
            let catalog = ScriptedCatalogService()
            let shop = Shop(restoring: ShopSnapshot(), recorder: recorder, catalogService: catalog)
            var table = ReplayTable()
            table.on("CatalogStore", "toLoading") { _ in _ = shop.performWithoutTime(.refresh) }
            table.on("CatalogStore", "didLoad") { _ in try catalog.answer() }  // the network's answer
            table.on("CatalogStore", "didFail") { args in try catalog.answer(failure: try args.string("error")) }
            table.on("CartStore", "add") { args in
                _ = shop.performWithoutTime(.add(sku: try args.string("sku"), quantity: try args.int("quantity")))
            }
            table.on("Wishlist", "save") { args in _ = shop.performWithoutTime(.wish(sku: try args.string("sku"))) }
            table.on("Wishlist", "remove") { args in _ = shop.performWithoutTime(.unwish(sku: try args.string("sku"))) }
            table.on("CheckoutStore", "checkout") { _ in _ = shop.performWithoutTime(.checkout) }
            table.byItself("CheckoutStore", "didCalculate")  // `checkout` sends it right after its own
            table.on("CheckoutStore", "pay") { _ in _ = shop.performWithoutTime(.pay) }
            table.on("CheckoutStore", "didPay") { _ in shop.clock.advanceUntilIdle() }  // the card's answer
            table.onRestore { restore in  // TimeTravel: restores replay as restores
                try shop.restorer.restore(from: restore.trace, atStep: restore.step, stores: [restore.store])
                shop.didRestore()
            }
            return table
        }
        #expect(outcome.isExact, "\(outcome.report())")
    }
    // End of example

    @Test func theReadmeShowsThisTestWordForWord() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(
            contentsOf: packageRoot.appendingPathComponent("Tests/SampleAppTests/ReadmeReplayTests.swift"),
            encoding: .utf8)
        let examples = documentationExamples(in: source)
        #expect(examples.count == 1)
        for example in examples {
            #expect(
                readme.contains("```swift\n\(example)```\n"),
                "README.md does not show this code of ReadmeReplayTests.swift as it is; copy it there:\n\(example)")
        }
    }
}
