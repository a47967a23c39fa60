import Observation
import Recorder
import Synchronization

/// The code of README.md's "Recording a store", compiled here, in a namespace of its own.
/// `ReadmeExampleTests` runs it and checks that the README shows each `// Example:` part
/// verbatim, less this namespace's indentation.
enum ReadmeExample {
    // Example: 1. subclass Store
    enum CatalogState: StateMachine, Equatable, Codable, Sendable {
        case idle, loading, loaded([String]), failed(String)

        enum Case: String, CaseIterable, Sendable { case idle, loading, loaded, failed }
        static let initialCase = Case.idle
        var currentCase: Case {
            switch self {
            case .idle: .idle
            case .loading: .loading
            case .loaded: .loaded
            case .failed: .failed
            }
        }
        static func transitions(from source: Case) -> [Case] {  // the compiler keeps this exhaustive
            switch source {
            case .idle: [.loading]
            case .loading: [.loaded, .failed]
            case .loaded, .failed: [.loading]
            }
        }
    }

    final class CatalogStore: Store<CatalogState>, @unchecked Sendable {
        func toLoading() { send { $0 = .loading } }  // recorded as "toLoading", with its source line
    }
    // End of example

    // Example: 3. record your own store
    @Observable
    final class Wishlist {
        private(set) var skus: [String] = []
        @ObservationIgnored private let recording: StoreRecording<[String]>

        init(recorder: TraceRecorder?) {
            recording = StoreRecording(name: "Wishlist", initialState: [], recorder: recorder)
        }

        func save(_ sku: String) {
            if !skus.contains(sku) { skus.append(sku) }
            recording.record(state: skus, args: ["sku": sku])  // recorded as "save"
        }
    }
    // End of example

    /// Records what the README's first example records, at `tracePath`; returns the store and
    /// what the observer of the second example printed.
    static func run(tracePath: String) throws -> (CatalogStore, [String]) {
        let printed = Mutex<[String]>([])
        @Sendable func print(_ text: String) { printed.withLock { $0.append(text) } }
        func render(_ state: CatalogState) {}

        // Example: recording
        let recorder = try TraceRecorder(
            path: tracePath, app: "Shop", machines: ["CatalogStore": CatalogState.self],
            redactedKeys: ["password", "token"])
        let catalog = CatalogStore(initialState: .idle, recorder: recorder)
        catalog.toLoading()
        catalog.toLoading()  // loading → loading is not in the table: recorded with its stack; validate flags it
        // End of example

        // Example: 2. observe it
        withObservationTracking {
            render(catalog.state)  // what a SwiftUI view's body does
        } onChange: {
            print("the catalog changed")  // once, at the next action that changes the state
        }
        // End of example
        catalog.send("didLoad") { $0 = .loaded(["Dune"]) }
        return (catalog, printed.withLock { $0 })
    }
}
