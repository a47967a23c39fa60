import Foundation
import Testing

@testable import Inspector

/// A trace file written line by line for the `when`, `why` and `stats` command tests, removed
/// when released.
final class QueryTraceFile {
    let folder: URL
    let path: String

    init(_ lines: [String]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-query-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("trace.jsonl").path
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    static let header = #"{"type":"header","format":"rewind-trace","version":1,"machines":{}}"#

    /// A cart whose second line's quantity is set twice, with a catalog event between.
    static func cart() throws -> QueryTraceFile {
        try QueryTraceFile([
            header,
            #"{"type":"register","seq":1,"elapsed":0,"store":"CartStore","state":{"lines":[{"sku":"A","quantity":1}]}}"#,
            #"{"type":"register","seq":2,"elapsed":0.5,"store":"CatalogStore","state":{"products":["A"]}}"#,
            #"{"type":"transition","seq":3,"elapsed":1,"store":"CartStore","action":"add","changed":true,"state":{"lines":[{"sku":"A","quantity":1},{"sku":"B","quantity":1}]},"source":"Cart.swift:10"}"#,
            #"{"type":"transition","seq":4,"elapsed":1.5,"store":"CatalogStore","action":"refresh","changed":false,"state":{"products":["A"]},"cause":3}"#,
            #"{"type":"transition","seq":5,"elapsed":2,"store":"CartStore","action":"setQuantity","changed":true,"state":{"lines":[{"sku":"A","quantity":1},{"sku":"B","quantity":4}]},"source":"Cart.swift:20","cause":4}"#,
            #"{"type":"transition","seq":6,"elapsed":4,"store":"CartStore","action":"setQuantity","changed":true,"state":{"lines":[{"sku":"A","quantity":1},{"sku":"B\u001b[2J","quantity":2}]},"source":"Cart.swift:20"}"#,
        ])
    }
}

@Suite struct WhenCommandTests {
    @Test func eventsWhoseStateCannotBeRebuiltAreNamedAndTheExitStatusSaysSo() throws {
        let file = try QueryTraceFile([
            #"{"type":"header","format":"rewind-trace","version":2,"machines":{}}"#,
            #"{"type":"register","seq":1,"elapsed":0,"store":"CartStore","state":{"items":[],"total":0}}"#,
            #"{"type":"transition","seq":2,"elapsed":1,"store":"CartStore","action":"remove","changed":true,"patch":[{"op":"remove","path":"/items/1"}]}"#,
            #"{"type":"transition","seq":3,"elapsed":2,"store":"CartStore","action":"clear","changed":true,"state":{"items":[],"total":5}}"#,
        ])
        let result = inspector(["when", file.path, "CartStore.items"])
        #expect(result.status == 1)
        #expect(result.err.contains("\(file.path):3: warning:"))
        #expect(result.err.contains("bad-patch"))
        #expect(result.err.contains("the value was compared across this event"))
        // A path the bad patch does not touch: the store's state at step 2 is unknown all the
        // same, so the answer says so (the change is listed where it can be read).
        let total = inspector(["when", file.path, "CartStore.total"])
        #expect(total.status == 1)
        #expect(total.err.contains("\(file.path):3: warning:"))
        #expect(total.out.contains("step 3"))
        // Where every state can be read, the answer is as before: exit 0, nothing on stderr.
        let sound = try QueryTraceFile([
            #"{"type":"header","format":"rewind-trace","version":2,"machines":{}}"#,
            #"{"type":"register","seq":1,"elapsed":0,"store":"CartStore","state":{"items":[],"total":0}}"#,
            #"{"type":"transition","seq":2,"elapsed":1,"store":"CartStore","action":"add","changed":true,"patch":[{"op":"add","path":"/items/-","value":1}]}"#,
            #"{"type":"transition","seq":3,"elapsed":2,"store":"CartStore","action":"total","changed":true,"patch":[{"op":"replace","path":"/total","value":5}]}"#,
        ])
        let soundTotal = inspector(["when", sound.path, "CartStore.total"])
        #expect(soundTotal.status == 0)
        #expect(soundTotal.err.isEmpty)
        #expect(soundTotal.out.contains("step 3"))
    }

    /// A patch that does not apply, on a path no patch touches (issue 34, audit D): `when` said
    /// "not in any state", nothing on standard error, exit 0, as if every state had been read.
    /// Every state of the store asked about is rebuilt: the bad patch is named by its line, in
    /// text and JSON alike, and the exit status is 1, as README says.
    @Test func aBadPatchThatDoesNotTouchThePathIsNamedAndExitsOne() throws {
        let file = try QueryTraceFile([
            #"{"type":"header","format":"rewind-trace","version":2,"machines":{}}"#,
            #"{"type":"register","seq":1,"elapsed":0,"store":"S","state":{"n":0}}"#,
            #"{"type":"transition","seq":2,"elapsed":1,"store":"S","action":"bump","changed":true,"patch":[{"op":"replace","path":"/n","value":1}]}"#,
            #"{"type":"transition","seq":3,"elapsed":2,"store":"S","action":"bump","changed":true,"patch":[{"op":"replace","path":"/m","value":2}]}"#,
            #"{"type":"transition","seq":4,"elapsed":3,"store":"S","action":"bump","changed":true,"patch":[{"op":"replace","path":"/n","value":3}]}"#,
        ])
        for format in ["text", "json"] {
            let result = inspector(["when", file.path, "S.a", "--format", format])
            #expect(result.status == 1, "\(format): \(result)")
            #expect(result.err.contains("\(file.path):4: warning:"), "\(format): \(result)")
            #expect(result.err.contains("bad-patch"), "\(format): \(result)")
        }
        let text = inspector(["when", file.path, "S.a"])
        #expect(text.out.contains("that could be read"), "\(text)")
        // With a range that ends before the bad patch, every state asked about is read.
        let early = inspector(["when", file.path, "S.n", "--before", "3"])
        #expect(early.status == 0, "\(early)")
        #expect(early.err.isEmpty, "\(early)")
    }

    @Test func listsEachChangeWithItsStepActionSourceCauseAndValues() throws {
        let file = try QueryTraceFile.cart()
        let result = inspector(["when", file.path, "CartStore.lines.1.quantity"])
        #expect(result.status == 0)
        #expect(
            result.out == """
                step 3  CartStore.add  (Cart.swift:10)
                    CartStore.lines[1].quantity: added 1
                step 5  CartStore.setQuantity  (Cart.swift:20, cause 4)
                    CartStore.lines[1].quantity: 1 → 4
                step 6  CartStore.setQuantity  (Cart.swift:20)
                    CartStore.lines[1].quantity: 4 → 2

                """)
    }

    @Test func jsonGivesOneObjectPerChangeWithTheEventAndTheValues() throws {
        let file = try QueryTraceFile.cart()
        let result = inspector(["when", file.path, "CartStore.lines.1.quantity", "--format", "json"])
        #expect(result.status == 0)
        #expect(result.err.isEmpty)
        let objects = try result.out.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["step"] as? Int } == [3, 5, 6])
        #expect(objects.map { $0["action"] as? String } == ["add", "setQuantity", "setQuantity"])
        #expect(objects.map { $0["cause"] as? Int } == [nil, 4, nil])
        #expect(objects[1]["source"] as? String == "Cart.swift:20")
        let changes = objects.map { ($0["changes"] as? [[String: Any]]) ?? [] }
        #expect(changes.map(\.count) == [1, 1, 1])
        #expect(
            changes[0][0]["kind"] as? String == "added" && changes[0][0]["before"] == nil
                && changes[0][0]["after"] as? Int == 1)
        #expect(
            changes[1][0]["kind"] as? String == "changed" && changes[1][0]["before"] as? Int == 1
                && changes[1][0]["after"] as? Int == 4)
        #expect(changes[2][0]["path"] as? String == "CartStore.lines[1].quantity")
        // No change is no output at all, not a sentence a script would have to parse.
        let none = inspector(["when", file.path, "CartStore.lines[1].quantity", "--before", "3", "--format", "json"])
        #expect(none.status == 0 && none.out.isEmpty)
    }

    @Test func beforeGivesOnlyTheLastChangeBeforeTheStep() throws {
        let file = try QueryTraceFile.cart()
        let result = inspector(["when", file.path, "CartStore.lines[1].quantity", "--before", "6"])
        #expect(result.status == 0)
        #expect(result.out.hasPrefix("step 5  CartStore.setQuantity"))
        #expect(!result.out.contains("step 3") && !result.out.contains("step 6"))
        let none = inspector(["when", file.path, "CartStore.lines[1].quantity", "--before", "3"])
        #expect(none.out == "CartStore.lines[1].quantity did not change before step 3\n")
        let after = inspector(["when", file.path, "CartStore.lines[1].quantity", "--after", "3"])
        #expect(after.out.components(separatedBy: "\nstep ").count == 2)
        #expect(after.out.hasPrefix("step 5"))
    }

    @Test func aRegisterEventAndStringsFromTheTraceAreShownSafely() throws {
        let file = try QueryTraceFile.cart()
        let result = inspector(["when", file.path, "CartStore.lines[1].sku"])
        #expect(result.out.contains(#"step 6  CartStore.setQuantity  (Cart.swift:20)"#))
        #expect(result.out.contains(#""B" → "B\u001b[2J""#), "\(result.out)")
        #expect(!result.out.contains("\u{1B}"))
        let register = inspector(["when", file.path, "CatalogStore"])
        #expect(register.out == "step 2  CatalogStore (register)\n    CatalogStore: added {\"products\": [\"A\"]}\n")
    }

    @Test func aPathThatIsNeverThereSaysSo() throws {
        let file = try QueryTraceFile.cart()
        let result = inspector(["when", file.path, "CartStore.coupon"])
        #expect(result.status == 0)
        #expect(result.out.hasPrefix("CartStore.coupon is not in any state of"))
    }

    @Test(arguments: [
        (["when"], "missing TRACE"),
        (["when", "TRACE"], "missing PATH"),
        (["when", "TRACE", "Nope.x"], "starts with no store of the trace; its stores are: CartStore, CatalogStore"),
        (["when", "TRACE", "."], "names no store"),
        (["when", "TRACE", "CartStore.lines[1"], "invalid path"),
        (["when", "TRACE", "CartStore.lines", "--before", "x"], "--before needs a whole number"),
    ])
    func badCommandLinesExitTwoWithAMessage(arguments: [String], message: String) throws {
        let file = try QueryTraceFile.cart()
        let result = inspector(arguments.map { $0 == "TRACE" ? file.path : $0 })
        #expect(result.status == 2)
        #expect(result.err.contains(message), "\(result.err)")
    }

    @Test func aMissingFileNamesTheFile() {
        let result = inspector(["when", "/nonexistent/trace.jsonl", "CartStore"])
        #expect(result.status == 2)
        #expect(result.err.contains("/nonexistent/trace.jsonl: no such file"))
    }

    @Test func helpListsTheOptionsAndExitStatuses() {
        let result = inspector(["when", "--help"])
        #expect(result.status == 0)
        #expect(
            result.out.contains("--before N") && result.out.contains("--after N") && result.out.contains("Exit status"))
    }
}
