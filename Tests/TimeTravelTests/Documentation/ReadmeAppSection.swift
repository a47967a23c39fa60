import Dispatch
import Observation
import Recorder
import TimeTravel

/// The code of README.md's "In an iOS or macOS app" (recording off in a shipping build, time
/// travel into the Simulator, `subscribe` on iOS 16) and of its "Time travel into a running app"
/// (an `@Observable` model restored), compiled here in a namespace of its own.
/// `ReadmeAppSectionTests` runs each part and checks that the README shows each `// Example:`
/// part verbatim, less this namespace's indentation. (The code of the app's launch, which needs
/// an Application Support folder of the test's, runs in a child: `TraceProbe --app-launch`.)
enum ReadmeAppSection {
    /// The catalog of the README's "Recording a store", with only what these parts use.
    enum CatalogState: Equatable, Codable, Sendable { case idle, loading }

    /// The README's `CatalogStore`: a command that sends without a name.
    final class CatalogStore: Store<CatalogState>, @unchecked Sendable {
        func toLoading() { send { $0 = .loading } }
    }

    /// "Recording off in a shipping build": the app's catalog, recorded to `tracePath` in a
    /// debug build and not at all in a release build.
    static func launch(tracePath: String) throws -> CatalogStore {
        // Example: recording off in a shipping build
        #if DEBUG
            let recorder: TraceRecorder? = try TraceRecorder(path: tracePath, replacing: true, app: "Shop")
        #else
            let recorder: TraceRecorder? = nil
        #endif
        let catalog = CatalogStore(initialState: .idle, recorder: recorder)
        // End of example
        return catalog
    }

    /// "Time travel into an app in the Simulator": the control channel of a debug build, its
    /// restores on the main thread; nil in a release build. `print` is the app's.
    static func openChannel(
        tracePath: String, restorer: Restorer, print: (String) -> Void
    ) throws -> ControlChannel? {
        // Example: time travel into an app in the Simulator
        #if DEBUG
            let channel = try ControlChannel(
                tracePath: tracePath, restorer: restorer,
                perform: { work in DispatchQueue.main.async(execute: work) })
            print("inspector step --attach '\(tracePath)'")
        #endif
        // End of example
        #if DEBUG
            return channel
        #else
            return nil
        #endif
    }

    /// "Watching a store, and iOS 16": each new state handed to the main thread to be drawn.
    static func watch(_ catalog: CatalogStore, render: @escaping @Sendable (CatalogState) -> Void) -> Subscription {
        // Example: subscribe
        let subscription = catalog.subscribe { state in  // keep the token: releasing it unsubscribes
            DispatchQueue.main.async { render(state) }
        }
        // End of example
        return subscription
    }

    // Example: an @Observable model restored
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor @Observable final class Favorites {
        private(set) var skus: [String] = []
        @ObservationIgnored let recording: StoreRecording<[String]>

        init(recorder: TraceRecorder?) {
            recording = StoreRecording(name: "Favorites", initialState: [], recorder: recorder)
        }

        func add(_ sku: String) {
            skus.append(sku)
            recording.record(state: skus, args: ["sku": sku])  // recorded as "add"
        }

        var restorable: RestorableStore {  // Restorer([RestorableStore(catalog), favorites.restorable])
            RestorableStore(recording) { [self] state in
                MainActor.assumeIsolated { skus = state }  // sets what views observe, on the main thread
            }
        }
    }
    // End of example
}
