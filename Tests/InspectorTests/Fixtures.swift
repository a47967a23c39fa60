import Foundation
import Recorder

@testable import Inspector

enum Phase: Equatable, Codable, Sendable, StateMachine {
    case idle
    case loading
    case loaded([String])

    enum Case: String, CaseIterable { case idle, loading, loaded }
    static let initialCase = Case.idle
    var currentCase: Case {
        switch self {
        case .idle: .idle
        case .loading: .loading
        case .loaded: .loaded
        }
    }
    static func transitions(from source: Case) -> [Case] {
        switch source {
        case .idle: [.loading]
        case .loading: [.loaded]
        case .loaded: [.loading]
        }
    }
}

final class CatalogStore: Store<Phase>, @unchecked Sendable {
    func toLoading() { send { $0 = .loading } }
    func load(_ titles: [String]) { send { $0 = .loaded(titles) } }
}

struct Cart: Equatable, Codable, Sendable {
    var items: [String] = []
}

/// A small trace recorded through the real recorder, in a temporary folder:
///
///     seq 1  register CatalogStore idle
///     seq 2  register CartStore
///     seq 3  CatalogStore.toLoading  idle → loading
///     seq 4  CatalogStore.toLoading  loading → loading   (illegal, no change)
///     seq 5  CatalogStore.load       loading → loaded
///     seq 6  CartStore.add           items + "Dune"   (args title: "Dune")
///     seq 7  CartStore.add           items + "Emma"   (args title: "Emma")
final class RecordedTrace {
    let folder: URL
    let path: String

    init(name: String = "shop.jsonl") throws {
        guard let recording = Self.recording else {
            throw CocoaError(
                .fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "the shop trace could not be recorded"])
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-inspector-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent(name).path
        try Data(recording).write(to: URL(fileURLWithPath: path))
    }

    /// The trace's bytes, recorded once per test process and copied for each test. Recording
    /// symbolicates the illegal transition's call stack, which takes about a second of CPU in
    /// this large debug test binary, and some 90 tests start from this trace.
    private static let recording: [UInt8]? = try? record()

    private static func record() throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rewind-inspector-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("shop.jsonl").path
        do {
            let recorder = try TraceRecorder(path: path, app: "Shop", machines: ["CatalogStore": Phase.self])
            let catalog = CatalogStore(initialState: .idle, recorder: recorder)
            let cart = Store(initialState: Cart(), name: "CartStore", recorder: recorder)
            catalog.toLoading()
            catalog.toLoading()
            catalog.load(["Dune", "Emma", "Ulysses"])
            cart.send("add", args: ["title": "Dune"]) { $0.items.append("Dune") }
            cart.send("add", args: ["title": "Emma"]) { $0.items.append("Emma") }
        }
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Runs `inspector` with `arguments`, feeding `input` as standard input.
func inspector(_ arguments: [String], input: String = "") -> (status: Int32, out: String, err: String) {
    let console = Console.capturing(input: input)
    let status = Inspector.run(arguments, console: console)
    return (status, console.out.text, console.err.text)
}
