import Foundation
import Recorder
import TestSupport
import Testing
import TraceJSON

@testable import SampleApp

/// A scenario recorded in memory, with the screens the app drew and the step of each.
struct Recording {
    let sink: MemorySink
    /// Each screen the app drew, with the step it drew it at (the last `seq` written by then).
    let screens: [(step: Int, screen: String)]
    /// The refusals of the scenario's commands.
    let refusals: [String?]

    /// The scenario recorded on a thread of its own (`onOwnThread`), so that the stacks of its
    /// illegal transitions are symbolicated once, whichever test records it.
    init(_ scenario: Scenario) throws {
        self = try onOwnThread { try Recording(recording: scenario) }
    }

    private init(recording scenario: Scenario) throws {
        let sink = MemorySink()
        let recorder = try Shop.recorder(sink: sink)
        var screens: [(Int, String)] = []
        refusals = scenario.run(recorder: recorder, policy: .record) { screen in
            screens.append((sink.lines.count - 1, screen))
        }
        self.sink = sink
        self.screens = screens
    }

    /// The trace's lines parsed, header first.
    var objects: [JSONObject] {
        get throws { try sink.lines.map(TraceText.object) }
    }
}

/// Reading trace lines in tests.
enum TraceText {
    static func object(_ line: String) throws -> JSONObject {
        let value = try JSONParser.parse(line)
        return try #require(value.objectValue, "not a JSON object: \(line)")
    }

    /// The lines of a trace, without what changes from run to run: the header's `started` and
    /// each event's `elapsed`.
    static func comparable(_ objects: [JSONObject]) -> [JSONObject] {
        objects.map { object in
            var object = object
            object.set(nil, forKey: "started")
            object.set(nil, forKey: "elapsed")
            // The frames below the app's own differ between `sample-app record` and a test.
            object.set(nil, forKey: "stack")
            return object
        }
    }

    /// The header's machines, by store name.
    static func machines(_ header: JSONObject) throws -> [String: MachineSpec] {
        var specs: [String: MachineSpec] = [:]
        for (store, machine) in try #require(header["machines"]?.objectValue) {
            let table = try #require(machine["transitions"]?.objectValue)
            var transitions: [String: [String]] = [:]
            for (source, targets) in table {
                transitions[source] = try #require(targets.arrayValue).compactMap(\.stringValue)
            }
            specs[store] = MachineSpec(
                initial: try #require(machine["initial"]?.stringValue), cases: table.keys, transitions: transitions)
        }
        return specs
    }

    /// The `seq` of each transition that its store's machine does not allow.
    static func illegalTransitions(_ objects: [JSONObject]) throws -> [Int] {
        let machines = try machines(try #require(objects.first))
        return objects.dropFirst().compactMap { event in
            guard event["type"]?.stringValue == "transition",
                let store = event["store"]?.stringValue, let machine = machines[store],
                let from = event["from"]?.stringValue, let to = event["to"]?.stringValue,
                !machine.allows(from: from, to: to)
            else { return nil }
            return event["seq"]?.intValue
        }
    }

    /// The events of `objects` (not the header) whose `type` is `transition`.
    static func transitions(_ objects: [JSONObject]) -> [JSONObject] {
        objects.filter { $0["type"]?.stringValue == "transition" }
    }
}

/// A folder that is removed when the value goes away.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("sample-app-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Runs `sample-app` in this process with a capturing console.
func runApp(_ arguments: [String], input: String = "", interactive: Bool = false) -> (
    status: Int32, output: String, errors: String
) {
    let console = Console.capturing(input: input, interactive: interactive)
    let status = SampleAppCLI.run(arguments, console: console)
    return (status, console.output, console.errors)
}

/// A shop whose stores record to a memory sink.
func recordedShop(_ configuration: ShopConfiguration = ShopConfiguration()) throws -> (Shop, MemorySink) {
    let sink = MemorySink()
    return (Shop(configuration: configuration, recorder: try Shop.recorder(sink: sink)), sink)
}
