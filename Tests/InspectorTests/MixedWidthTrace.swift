import Foundation

/// A trace whose rows have actions and arguments of many lengths, for the step view's columns
/// (issue 36): `cycles` times over, seven events on two stores,
///
///     go                                        idle/loaded → loading
///     didLoadEverything (even cycles)/didLoad   loading → loaded     (args count)
///     add                                       empty → filled       (args sku, quantity)
///     removeEverythingFromTheCartAtOnce/remove  filled → empty       (the first cycle's is
///                                                                     longer than 28 columns)
///     refresh                                   loaded → loading
///     refreshTheCatalogWithAVeryLongActionName  loading → loading    (illegal; long args;
///       (every third cycle)/refreshAgain                              args attempt)
///     didLoad                                   loading → loaded
///
/// after two registers (steps 1 and 2): the illegal step of cycle `k` (from 0) is `7k + 8`, so
/// the list's rows differ from screen to screen.
final class MixedWidthTrace {
    let folder: URL
    let path: String
    /// The longest action name.
    static let longestAction = "refreshTheCatalogWithAVeryLongActionName"

    init(cycles: Int) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-mixed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("mixed.jsonl").path
        let catalog =
            #"{"initial":"idle","transitions":{"idle":["loading"],"loading":["loaded","failed"],"loaded":["loading"],"failed":["loading"]}}"#
        let cart = #"{"initial":"empty","transitions":{"empty":["filled"],"filled":["empty"]}}"#
        var lines = [
            #"{"type":"header","format":"rewind-trace","version":1,"app":"Mixed","machines":{"CatalogStore":\#(catalog),"CartStore":\#(cart)}}"#,
            #"{"type":"register","seq":1,"elapsed":0.001,"store":"CatalogStore","case":"idle","state":{"idle":{}}}"#,
            #"{"type":"register","seq":2,"elapsed":0.002,"store":"CartStore","case":"empty","state":{"empty":{}}}"#,
        ]
        var seq = 2
        func event(_ store: String, _ action: String, _ from: String, _ to: String, args: String? = nil) {
            seq += 1
            let elapsed = Double(seq) * 1.234567
            let arguments = args.map { #","args":\#($0)"# } ?? ""
            lines.append(
                #"{"type":"transition","seq":\#(seq),"elapsed":\#(elapsed),"store":"\#(store)","action":"\#(action)"\#(arguments),"from":"\#(from)","to":"\#(to)","changed":\#(from != to),"state":{"\#(to)":{}},"source":"Shop.swift:96"}"#
            )
        }
        for cycle in 0..<cycles {
            event("CatalogStore", "go", cycle == 0 ? "idle" : "loaded", "loading")
            if cycle.isMultiple(of: 2) {
                event("CatalogStore", "didLoadEverything", "loading", "loaded", args: #"{"count":\#(cycle)}"#)
            } else {
                event("CatalogStore", "didLoad", "loading", "loaded")
            }
            event("CartStore", "add", "empty", "filled", args: #"{"sku":"MUG-\#(cycle)","quantity":2}"#)
            event("CartStore", cycle == 0 ? "removeEverythingFromTheCartAtOnce" : "remove", "filled", "empty")
            event("CatalogStore", "refresh", "loaded", "loading")
            if cycle % 3 == 2 {
                event(
                    "CatalogStore", Self.longestAction, "loading", "loading",
                    args:
                        #"{"reason":"the person pulled to refresh twice while the catalog was loading","attempt":\#(cycle)}"#
                )
            } else {
                event("CatalogStore", "refreshAgain", "loading", "loading", args: #"{"attempt":\#(cycle)}"#)
            }
            event("CatalogStore", "didLoad", "loading", "loaded")
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }
}
