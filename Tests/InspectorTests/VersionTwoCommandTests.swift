import Foundation
import Testing
import TraceReader

@testable import Inspector

/// The same run written twice, in its own folder: with whole states (version 1) and with
/// patches (version 2) whose results print exactly as the whole states (members stay in place),
/// so that every command must print the same for both.
final class TwinTraces {
    let folder: URL
    let whole: String
    let patched: String

    static let machines =
        #"{"CatalogStore":{"initial":"idle","transitions":{"idle":["loading"],"loading":["loaded","failed"],"loaded":["loading"],"failed":["loading"]}}}"#

    /// Each event: the part before its state, its whole state, its patch (nil: whole in both).
    static let events: [(head: String, state: String, patch: String?)] = [
        (#"{"type":"register","seq":1,"elapsed":0.1,"store":"CatalogStore","case":"idle""#, #"{"idle":{}}"#, nil),
        (#"{"type":"register","seq":2,"elapsed":0.2,"store":"CartStore""#, #"{"items":[],"total":0}"#, nil),
        (
            #"{"type":"transition","seq":3,"elapsed":0.3,"store":"CatalogStore","action":"toLoading","from":"idle","to":"loading","changed":true"#,
            #"{"loading":{}}"#, #"[{"op":"remove","path":"/idle"},{"op":"add","path":"/loading","value":{}}]"#
        ),
        (
            #"{"type":"transition","seq":4,"elapsed":0.4,"store":"CartStore","action":"add","changed":true"#,
            #"{"items":[{"sku":"dune","quantity":1}],"total":9.99}"#,
            #"[{"op":"add","path":"/items/-","value":{"sku":"dune","quantity":1}},{"op":"replace","path":"/total","value":9.99}]"#
        ),
        (
            #"{"type":"transition","seq":5,"elapsed":0.5,"store":"CatalogStore","action":"load","from":"loading","to":"loaded","changed":true"#,
            #"{"loaded":{"titles":["Dune","Emma"]}}"#,
            #"[{"op":"remove","path":"/loading"},{"op":"add","path":"/loaded","value":{"titles":["Dune","Emma"]}}]"#
        ),
        (
            #"{"type":"transition","seq":6,"elapsed":0.6,"store":"CartStore","action":"add","changed":true"#,
            #"{"items":[{"sku":"dune","quantity":1},{"sku":"emma","quantity":2}],"total":29.97}"#,
            #"[{"op":"add","path":"/items/1","value":{"sku":"emma","quantity":2}},{"op":"replace","path":"/total","value":29.97}]"#
        ),
        (#"{"type":"restore","seq":7,"elapsed":0.7,"store":"CartStore","step":2"#, #"{"items":[],"total":0}"#, nil),
        (
            #"{"type":"transition","seq":8,"elapsed":0.8,"store":"CartStore","action":"clear","changed":false"#,
            #"{"items":[],"total":0}"#, "[]"
        ),
        (
            #"{"type":"transition","seq":9,"elapsed":0.9,"store":"CartStore","action":"add","changed":true"#,
            #"{"items":[{"sku":"hat","quantity":1}],"total":15}"#,
            #"[{"op":"test","path":"/total","value":0},{"op":"add","path":"/items/0","value":{"sku":"hat","quantity":1}},{"op":"replace","path":"/total","value":15}]"#
        ),
    ]

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-twins-\(UUID().uuidString)")
        for name in ["v1", "v2"] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        whole = folder.appendingPathComponent("v1/shop.jsonl").path
        patched = folder.appendingPathComponent("v2/shop.jsonl").path
        func header(_ version: Int) -> String {
            #"{"type":"header","format":"rewind-trace","version":\#(version),"app":"Shop","machines":\#(Self.machines)}"#
        }
        var v1 = [header(1)]
        var v2 = [header(2)]
        for event in Self.events {
            v1.append(event.head + #","state":"# + event.state + #","source":"Shop.swift:1"}"#)
            v2.append(
                event.head + (event.patch.map { #","patch":"# + $0 } ?? #","state":"# + event.state)
                    + #","source":"Shop.swift:1"}"#)
        }
        try Data(v1.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: whole))
        try Data(v2.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: patched))
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// What `inspector` prints for `arguments` (`TRACE` standing for the trace) on each twin,
    /// with the folder of each written the same way.
    func run(_ arguments: [String], input: String = "") -> (
        whole: (Int32, String, String), patched: (Int32, String, String)
    ) {
        func on(_ path: String) -> (Int32, String, String) {
            let result = inspector(arguments.map { $0 == "TRACE" ? path : $0 }, input: input)
            let folder = (path as NSString).deletingLastPathComponent
            return (
                result.status, result.out.replacingOccurrences(of: folder, with: "FOLDER"),
                result.err.replacingOccurrences(of: folder, with: "FOLDER")
            )
        }
        return (on(whole), on(patched))
    }
}

@Suite struct VersionTwoCommandTests {
    /// Every command prints the same for a version 2 trace as for the same run with whole
    /// states.
    @Test(arguments: [
        ["show", "TRACE", "4"], ["show", "TRACE", "6", "--store", "CartStore"],
        ["show", "TRACE", "9", "--path", "CartStore.items.0.sku"], ["show", "TRACE", "8"],
        ["diff", "TRACE", "6"], ["diff", "TRACE", "9"], ["diff", "TRACE", "2", "9", "--format", "paths"],
        ["diff", "TRACE", "3", "6", "--format", "json-patch"], ["log", "TRACE"],
        ["log", "TRACE", "--store", "CartStore"],
        ["when", "TRACE", "CartStore.total"], ["when", "TRACE", "CartStore.items.0", "--format", "json"],
        ["when", "TRACE", "CartStore.items[1].quantity", "--before", "9"], ["why", "TRACE", "9"], ["stats", "TRACE"],
        ["graph", "TRACE"], ["validate", "TRACE"],
    ])
    func everyCommandPrintsTheSameAsForWholeStates(_ arguments: [String]) throws {
        let twins = try TwinTraces()
        let (whole, patched) = twins.run(arguments)
        #expect(whole.0 == 0, "\(whole.2)")
        #expect(patched.0 == whole.0)
        #expect(patched.1 == whole.1)
        #expect(patched.2 == whole.2)
        #expect(!whole.1.isEmpty)
    }

    @Test func stepShowsEveryStepsDiffAndState() throws {
        let twins = try TwinTraces()
        let input = (Array(repeating: "next\nstate\ndiff", count: 10) + ["goto 6", "prev", "who CartStore.total"])
            .joined(separator: "\n")
        let (whole, patched) = twins.run(["step", "TRACE"], input: input)
        #expect(whole.0 == 0 && patched.0 == 0)
        #expect(patched.1 == whole.1)
        #expect(whole.1.contains("+     [0]: {\"sku\": \"hat\", \"quantity\": 1}"))
    }

    @Test func theReportHoldsEveryRebuiltState() throws {
        let twins = try TwinTraces()
        func data(_ path: String) throws -> ReportData {
            let trace = try TraceFile(path: path)
            let window = try ReportWindow.resolve(from: "4", to: nil, in: trace)
            return try ReportData(
                trace: trace, window: window, validation: try trace.validate(), machines: trace.header.machines,
                limits: ReportLimits())
        }
        let whole = try data(twins.whole)
        let patched = try data(twins.patched)
        #expect(patched.details == whole.details)
        #expect(patched.columns.json == whole.columns.json)
        #expect(String(decoding: patched.details, as: UTF8.self).contains(#"{"state":{"items":[{"sku":"hat""#))
    }

    @Test func aPatchThatDoesNotApplyIsAnErrorNamingItsLine() throws {
        let twins = try TwinTraces()
        // Step 9's `test` fails when the total is not 0: the restore at step 7 makes it 3.
        var lines = try String(contentsOfFile: twins.patched, encoding: .utf8).split(separator: "\n").map(String.init)
        lines[7] = lines[7].replacingOccurrences(of: #""total":0}"#, with: #""total":3}"#)
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: twins.patched))

        let show = inspector(["show", twins.patched, "9"])
        #expect(show.status == 2)
        #expect(show.err.contains("shop.jsonl:10: the patch of \"add\" on \"CartStore\" does not apply"))
        #expect(show.err.contains("test failed"))
        #expect(inspector(["show", twins.patched, "8"]).status == 0)
        #expect(inspector(["diff", twins.patched, "9"]).status == 2)
        #expect(inspector(["validate", twins.patched]).out.contains("bad-patch"))
        let step = inspector(["step", twins.patched, "--at", "8"], input: "next\nstate\nprev\n")
        #expect(step.status == 0)
        #expect(step.out.contains("✖ cannot show the state at step 9: "))
        #expect(step.out.contains("step 8 of 9"))
    }

    @Test func aStoreWhoseStateIsUnknownDoesNotHideTheOthers() throws {
        let twins = try TwinTraces()
        let ghost =
            #"{"type":"transition","seq":10,"store":"Ghost","action":"haunt","changed":true,"patch":[{"op":"add","path":"/a","value":1}]}"#
        try Data(((try String(contentsOfFile: twins.patched, encoding: .utf8)) + ghost + "\n").utf8).write(
            to: URL(fileURLWithPath: twins.patched))
        let all = inspector(["show", twins.patched, "10"])
        #expect(all.status == 2)
        #expect(all.err.contains("shop.jsonl:11: store \"Ghost\" starts with a patch"))
        let cart = inspector(["show", twins.patched, "10", "--store", "CartStore"])
        #expect(cart.status == 0)
        #expect(cart.out.contains("\"hat\""))
        let diff = inspector(["diff", twins.patched, "8", "10", "--store", "CartStore", "--format", "paths"])
        #expect(diff.status == 0)
        #expect(diff.out.contains("CartStore.items[0]: added"))
    }
}
