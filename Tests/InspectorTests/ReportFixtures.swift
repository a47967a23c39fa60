import Foundation
import TraceJSON

@testable import Inspector

/// A trace written line by line into its own temporary folder, removed when released.
final class ReportTraceFile {
    let folder: String
    let path: String

    init(_ lines: [String], name: String = "shop.jsonl") throws {
        folder =
            FileManager.default.temporaryDirectory.appendingPathComponent("rewind-report-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        path = folder + "/" + name
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
    }

    /// A file name in the trace's folder.
    func sibling(_ name: String) -> String { folder + "/" + name }

    /// Writes `spec.json` next to the trace, declaring the shop's `loading → loading` (so the
    /// trace has no problem), and returns its path.
    func writeSpecAllowingTheLoop() throws -> String {
        let spec =
            #"{"machines":{"CatalogStore":{"initial":"idle","transitions":{"idle":["loading"],"loading":["loading","loaded"],"loaded":[]}}}}"#
        try Data(spec.utf8).write(to: URL(fileURLWithPath: sibling("spec.json")))
        return sibling("spec.json")
    }

    /// The text of the file `name` in the trace's folder.
    func read(_ name: String) throws -> String {
        try String(contentsOfFile: sibling(name), encoding: .utf8)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// Traces for the report tests, with strings that would run script if a page used them as markup.
enum ReportFixture {
    static let closesScript = "</script><script>document.title='pwned'</script>"
    static let image = "<img src=x onerror=\"document.title='pwned'\">"
    static let comment = "<!--<script>"
    static let separators = "line\u{2028}para\u{2029}end"

    static let header =
        #"{"type":"header","format":"rewind-trace","version":1,"app":"Shop <b>","machines":{"CatalogStore":{"initial":"idle","transitions":{"idle":["loading"],"loading":["loaded","failed"],"loaded":["loading"],"failed":["loading"]}}}}"#

    /// The events of the shop trace, one JSON object each; seq 4 is illegal (loading → loading).
    static var shopEvents: [String] {
        let titles = JSONPrinter.compact(.array([.string("Dune"), .string(closesScript), .string(separators)]))
        return [
            #"{"type":"register","seq":1,"elapsed":0.001,"store":"CatalogStore","case":"idle","state":{"idle":{}}}"#,
            #"{"type":"register","seq":2,"elapsed":0.002,"store":"CartStore","state":{"items":[]}}"#,
            #"{"type":"transition","seq":3,"elapsed":0.003,"store":"CatalogStore","action":"toLoading","from":"idle","to":"loading","changed":true,"state":{"loading":{}},"source":"CatalogStore.swift:31"}"#,
            #"{"type":"transition","seq":4,"elapsed":0.004,"store":"CatalogStore","action":"toLoading","from":"loading","to":"loading","changed":false,"state":{"loading":{}},"source":"CatalogStore.swift:31"}"#,
            #"{"type":"transition","seq":5,"elapsed":0.005,"store":"CatalogStore","action":"load","from":"loading","to":"loaded","changed":true,"state":{"loaded":{"titles":"#
                + titles + #"}}}"#,
            #"{"type":"transition","seq":6,"elapsed":0.006,"store":"CartStore","action":"add","changed":true,"state":{"items":["#
                + JSONPrinter.quoted(image) + #"]},"args":{"note":"# + JSONPrinter.quoted(comment) + #"}}"#,
            #"{"type":"transition","seq":7,"elapsed":0.007,"store":"CartStore","action":"add","changed":true,"state":{"items":["#
                + JSONPrinter.quoted(image) + #","Emma"]},"cause":6}"#,
        ]
    }

    static var shopLines: [String] { [header] + shopEvents }
}

/// Runs `inspector` with `arguments` and captures what it prints.
func runReportCommand(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
    let console = Console.capturing()
    let status = Inspector.run(arguments, console: console)
    return (status, console.out.text, console.err.text)
}

/// A written report, taken apart: its data elements parsed back.
struct ParsedReport {
    let html: String
    /// The text of `<script type="application/json" id="rw-data">`.
    let dataText: String
    /// The text of `<script type="application/json" id="rw-events">`.
    let eventsText: String
    let info: JSONValue
    let columns: JSONValue
    /// The lines of `rw-events`, parsed.
    let details: [JSONValue]

    init(_ html: String) throws {
        self.html = html
        dataText = try Self.element("rw-data", in: html)
        eventsText = try Self.element("rw-events", in: html)
        let data = try JSONParser.parse(dataText)
        info = data["info"] ?? .null
        columns = data["columns"] ?? .null
        // One line per event (and per starting store), each ending in a newline: nothing else.
        let lines = eventsText.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.last == "" else { throw ReportTestError("rw-events does not end with a newline") }
        details = try lines.dropLast().map { try JSONParser.parse(String($0)) }
    }

    /// The integers of one event column.
    func column(_ name: String) -> [Int] {
        (columns[name]?.arrayValue ?? []).compactMap(\.intValue)
    }

    /// The text of the JSON script element `id`: from its start tag to the first `</script`.
    static func element(_ id: String, in html: String) throws -> String {
        let start = "<script type=\"application/json\" id=\"\(id)\">"
        guard let open = html.range(of: start),
            let close = html.range(of: "</script", range: open.upperBound..<html.endIndex)
        else {
            throw ReportTestError("no script element \(id)")
        }
        return String(html[open.upperBound..<close.lowerBound])
    }
}

struct ReportTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
