import Foundation

/// A trace written line by line in a temporary folder, for the long-trace tests: a catalog that
/// is refreshed twice while loading, `cycles` times over. Each cycle is three events:
///
///     toLoading  idle/loaded → loading
///     toLoading  loading → loading      (illegal: one problem per cycle)
///     didLoad    loading → loaded       (args products: 4)
///
/// so the illegal step of cycle `k` (from 0) is step `3k + 3`, on line `3k + 4`
/// (a `register` is step 1, line 2). `malformedLine` replaces that line with text that is not
/// JSON.
final class ManyProblemsTrace {
    let folder: URL
    let path: String
    let cycles: Int

    init(cycles: Int, malformedLine: Int? = nil) throws {
        self.cycles = cycles
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-long-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("long.jsonl").path
        let machine =
            #"{"initial":"idle","transitions":{"idle":["loading"],"loading":["loaded"],"loaded":["loading"]}}"#
        var lines = [
            #"{"type":"header","format":"rewind-trace","version":1,"app":"Long","started":"2026-11-24T03:48:22.578Z","machines":{"CatalogStore":"#
                + machine + "}}",
            #"{"type":"register","seq":1,"elapsed":0.001,"store":"CatalogStore","case":"idle","state":{"idle":{}}}"#,
        ]
        var seq = 1
        func event(_ action: String, _ from: String, _ to: String, args: String = "") {
            seq += 1
            let elapsed = Double(seq) / 1000
            lines.append(
                #"{"type":"transition","seq":\#(seq),"elapsed":\#(elapsed),"store":"CatalogStore","action":"\#(action)","from":"\#(from)","to":"\#(to)","changed":\#(from != to),"state":{"\#(to)":{}},"source":"Shop.swift:96""#
                    + args + "}")
        }
        for cycle in 0..<cycles {
            event("toLoading", cycle == 0 ? "idle" : "loaded", "loading")
            event("toLoading", "loading", "loading")
            event("didLoad", "loading", "loaded", args: #","args":{"products":4}"#)
        }
        if let malformedLine { lines[malformedLine - 1] = "{\"type\":\"transition\", this is not JSON" }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }
}
