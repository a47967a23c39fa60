import Foundation
import Recorder

/// Writes benchmark traces through the real recorder: a catalog machine and a counter store,
/// events of about 270 bytes, like the performance issue's 200 MB / 727,000-event trace.
enum TraceGenerator {
    enum Phase: String, CaseIterable, Codable, Sendable { case idle, loading, loaded, failed }

    struct CatalogState: StateMachine, Equatable, Codable, Sendable {
        var phase: Phase
        var page: Int
        var query: String
        var currentCase: Phase { phase }
        static let initialCase = Phase.idle
        static func transitions(from source: Phase) -> [Phase] {
            switch source {
            case .idle: [.loading]
            case .loading: [.loaded, .failed]
            case .loaded, .failed: [.loading]
            }
        }
    }

    struct CartState: Equatable, Codable, Sendable {
        var skus: [String]
        var total: Double
        var note: String
    }

    /// Writes a trace of about `bytes` bytes at `path`; returns its event count.
    static func write(path: String, bytes: Int) throws -> Int {
        let recorder = try TraceRecorder(
            path: path, replacing: true, app: "Bench", machines: ["CatalogStore": CatalogState.self])
        let catalog = Store(
            initialState: CatalogState(phase: .idle, page: 0, query: "swift"), name: "CatalogStore", recorder: recorder)
        let cart = Store(
            initialState: CartState(skus: [], total: 0, note: "gift wrap, please"), name: "CartStore",
            recorder: recorder)
        var events = 2
        var written = 0
        var index = 0
        while written < bytes {
            index += 1
            if index % 2 == 0 {
                catalog.send("toLoading") { $0.phase = .loading }
                catalog.send("didLoad") {
                    $0.phase = .loaded
                    $0.page += 1
                }
                events += 2
                written += 2 * 250
            } else {
                cart.send("add") { cart in
                    cart.skus = ["SKU-\(index % 97)", "SKU-\(index % 89)", "SKU-\(index % 83)"]
                    cart.total = Double(index % 1000) + 0.99
                }
                events += 1
                written += 280
            }
        }
        return events
    }

    /// The size of the file at `path`.
    static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}
