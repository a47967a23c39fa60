import Foundation
import Recorder
import TestSupport
import Testing
import TimeTravel
import TraceReader

@testable import SampleApp

/// The shop set to a step of its own trace (`sample-app --control`, driven by
/// `inspector step --attach`): its stores and its wishlist model take the recorded states, its
/// reactions do not run, and its screen shows that past.
@Suite struct ShopTimeTravelTests {
    /// A shop that loaded its catalog, filled its cart, saved a wish and calculated a total.
    func shopWithATotal() throws -> (Shop, MemorySink) {
        let (shop, sink) = try recordedShop()
        shop.launch()
        for command in ["wait", "add SHIRT 2", "wish MUG", "checkout"] {
            #expect(shop.run(try ShopCommand(parsing: command)) == nil)
        }
        return (shop, sink)
    }

    @Test func everyStepOfTheTraceCanBeRestoredAndItIsWhatReplayDraws() throws {
        let (shop, sink) = try shopWithATotal()
        let trace = try TraceFile(bytes: sink.data, name: "shop.jsonl")
        for step in (0...trace.lastStep).reversed() {
            try shop.restorer.restore(from: trace, atStep: step)
            let expected = try ShopSnapshot(trace, atStep: step)
            if step >= 4 {  // every store has registered
                #expect(shop.snapshot == expected, "step \(step)")
            }
        }
        #expect(shop.wishlist.skus == [])  // the model's own property, not only its recording
    }

    @Test func aRestoreSetsOffNoReactionAndTheTraceValidates() throws {
        let (shop, sink) = try shopWithATotal()
        #expect(shop.run(try ShopCommand(parsing: "add MUG")) == nil)
        #expect(shop.checkout.state.currentCase == .editing)  // the cart changed: the total went
        let trace = try TraceFile(bytes: sink.data, name: "shop.jsonl")
        let events = (0..<trace.eventCount).compactMap { trace.event(at: $0) }
        let totalStep = try #require(events.first { $0.action == "didCalculate" }?.seq)
        let before = sink.lines.count

        let report = try shop.restorer.restore(from: trace, atStep: totalStep)

        // The cart changed back, and the checkout, which follows the cart, kept its restored
        // total: its subscription's `cartDidChange` (→ editing) was not run.
        #expect(report.restored == ["CatalogStore", "CartStore", "CheckoutStore", "Wishlist"])
        #expect(shop.checkout.state.currentCase == .ready)
        let added = sink.lines.dropFirst(before)
        #expect(added.count == 4 && added.allSatisfy { $0.contains("\"type\":\"restore\"") })
        #expect(TraceValidator().validate(bytes: sink.data).problems.isEmpty)
        // After it, the shop goes on from the restored step.
        #expect(shop.run(try ShopCommand(parsing: "pay")) == nil)
        #expect(shop.checkout.state.currentCase == .paid)
    }

    @Test func undoDoesNotReachIntoThePresentItLeft() throws {
        let (shop, sink) = try shopWithATotal()
        try shop.restorer.restore(from: try TraceFile(bytes: sink.data), atStep: 4)
        shop.didRestore()
        #expect(shop.run(.undo) == "nothing to undo")
    }

    @Test func theControlChannelNeedsATrace() {
        let result = runApp(["--control", "/tmp/shop.sock"])
        #expect(result.status == 2)
        #expect(result.errors.contains("--control needs --trace FILE"))
    }

    @Test func theShopRedrawsWhenTheInspectorSetsItToAStep() throws {
        let folder = try TemporaryFolder()
        let (trace, socket) = (folder.path("shop.jsonl"), folder.path("shop.sock"))
        let executable = try #require(ProcessTests.executable, "sample-app is not built next to the tests")
        let app = try ChildProcess(
            executable.path, ["--trace", trace, "--control", socket], input: .pipe, output: .pipe,
            errors: .pipe)
        defer { app.send(SIGKILL) }
        try app.writeInput("wait\nadd SHIRT 2\n")
        app.readOutput(untilContains: "2 x SHIRT")
        var client: ControlClient?
        let deadline = Date().addingTimeInterval(60)
        while client == nil && Date() < deadline {
            client = try? ControlClient(socketPath: socket)
            if client == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        let reply = try #require(client).request(.restore(step: 6))
        #expect(
            reply
                == .restored(
                    step: 6, present: false, stores: ["CatalogStore", "CartStore", "CheckoutStore", "Wishlist"],
                    absent: [], kept: []))
        let screen = app.readOutput(untilContains: "set the shop to step 6 of shop.jsonl")
        let lastScreen = screen.components(separatedBy: "REWIND SHOP").last ?? ""
        #expect(lastScreen.contains("Cart\n  empty"))
        try app.writeInput("quit\n")
        #expect(app.wait(timeout: 10) == .exited(0))
        #expect(!FileManager.default.fileExists(atPath: socket))
    }
}
