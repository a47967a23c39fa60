import Observation
import Recorder
@_spi(RewindInternals) import RewindSupport
import Testing
import TraceReader

@testable import TimeTravel

/// An `@Observable` model, as a SwiftUI app writes one (on the main actor), recorded through a
/// `StoreRecording` and restored with `RestorableStore(_:apply:)`, as the TimeTravel catalog's
/// "Restoring an @Observable model" shows.
@Suite struct ObservableModelRestoreTests {
    @Test @MainActor
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func aModelIsSetToTheRecordedStepAndItsObserversAreTold() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink, app: "Shop")
        let model = Inventory(recorder: recorder)
        model.receive("MUG", 3)  // seq 2, step 2
        model.receive("HAT", 1)  // seq 3
        model.sell("MUG")  // seq 4
        let restorer = Restorer([model.restorable])
        let told = Lock(0)  // how many times the observation's onChange ran
        withObservationTracking {
            _ = model.stock
        } onChange: {
            told.withLock { $0 += 1 }
        }

        let report = try restorer.restore(from: TraceFile(bytes: sink.data), atStep: 2)
        #expect(report.restored == ["Inventory"])
        #expect(model.stock == ["MUG": 3])
        #expect(told.withLock { $0 } == 1)
        // The recording took the restored state: the next action is compared with it.
        model.receive("PEN", 2)
        #expect(sink.lines.last?.contains("\"changed\":true") == true)
        #expect(model.recording.state == InventoryState(stock: ["MUG": 3, "PEN": 2]))
        // Step 0 (before the model's register, seq 1): the model did not exist yet.
        #expect(try restorer.restore(from: TraceFile(bytes: sink.data), atStep: 0).absent == ["Inventory"])
    }
}

struct InventoryState: Codable, Equatable, Sendable {
    var stock: [String: Int] = [:]
}

// Example: an @Observable model
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor @Observable final class Inventory {
    private(set) var stock: [String: Int] = [:]
    @ObservationIgnored let recording: StoreRecording<InventoryState>

    init(recorder: TraceRecorder?) {
        recording = StoreRecording(name: "Inventory", initialState: InventoryState(), recorder: recorder)
    }

    var state: InventoryState { InventoryState(stock: stock) }

    func receive(_ sku: String, _ count: Int) {
        stock[sku, default: 0] += count
        recording.record(state: state, args: ["sku": sku, "count": count])
    }

    /// What time travel sets it with: its recording has the state already (with a `restore`
    /// event); setting the properties tells the views that observe them.
    var restorable: RestorableStore {
        RestorableStore(recording) { [self] state in
            // A restore runs where the control channel's `perform` puts it: the main thread.
            MainActor.assumeIsolated { stock = state.stock }
        }
    }
}
// End of example

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Inventory {
    func sell(_ sku: String) {
        stock[sku, default: 0] -= 1
        recording.record(state: state, args: ["sku": sku])
    }
}
