import Recorder
import TraceJSON
import TraceReader

/// The app state where a window of steps starts: each store's state just before the window's
/// first event, and the machine case it was in, so that the page can show the state and the
/// current case at every step of the window without the events before it.
struct WindowStart {
    /// One store as it was.
    struct Store {
        var name: String
        var state: JSONValue
        /// The case of its latest `register`, `transition` or `restore`, for a store with a machine.
        var caseName: String?
    }

    /// The stores that had an event before the window, in the trace's store order.
    var stores: [Store]

    /// The start of `window`; empty for a window that starts at step 0.
    init(of window: ReportWindow, in trace: TraceFile, machines: [String: MachineSpec]) {
        guard window.events.lowerBound > 0 else {
            stores = []
            return
        }
        let state = trace.appState(atStep: window.startStep)
        // The case of each store with a machine is on its latest event before the window: read
        // back from the window until each is found (the trace index keeps no case).
        var wanted = Set(state.keys.filter { machines[$0] != nil })
        var cases: [String: String] = [:]
        var index = window.events.lowerBound - 1
        while !wanted.isEmpty && index >= 0 {
            if let event = trace.event(at: index), event.setsState, let store = event.store, wanted.remove(store) != nil
            {
                cases[store] = event.type == "transition" ? event.to : event.caseName
            }
            index -= 1
        }
        stores = state.map { Store(name: $0.key, state: $0.value, caseName: cases[$0.key]) }
    }
}
