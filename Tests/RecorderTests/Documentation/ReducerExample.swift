// The reducer examples of Sources/Recorder/Documentation.docc/RecordingOtherStores.md, compiled and
// run by `RecordingOtherStoresTests`, which also checks that the article shows this very code.
import Recorder

// Example: a reducer, as an app has it
struct TodoState: Equatable, Encodable, Sendable {
    var items: [String] = []
}

enum TodoAction {
    case addItem(sku: String)
    case removeItem(sku: String)
    case clear
}

func reduce(into state: inout TodoState, action: TodoAction) {
    switch action {
    case .addItem(let sku): state.items.append(sku)
    case .removeItem(let sku): state.items.removeAll { $0 == sku }
    case .clear: state.items = []
    }
}
// End of example

// Example: the library's store, reduced to its shape
/// Stands for the library's store (ReSwift's `Store`, the Composable Architecture's): it holds
/// the state and runs the reducer on each action it is sent.
final class ReducerStore<State, Action> {
    private(set) var state: State
    private let reducer: (inout State, Action) -> Void

    init(initialState: State, reducer: @escaping (inout State, Action) -> Void) {
        state = initialState
        self.reducer = reducer
    }

    func dispatch(_ action: Action) {
        reducer(&state, action)
    }
}
// End of example

// Example: recording a reducer
/// Wraps a reducer so that each action it reduces is recorded: named after its enum case
/// (`.addItem(sku:)` is `addItem`), with its associated values as `args`.
func recorded<State, Action>(
    _ reducer: @escaping (inout State, Action) -> Void, by recording: StoreRecording<State>
) -> (inout State, Action) -> Void {
    { state, action in
        reducer(&state, action)
        recording.record(action: action, state: state)
    }
}

func makeTodoStore(recorder: TraceRecorder?) -> ReducerStore<TodoState, TodoAction> {
    let recording = StoreRecording(name: "TodoStore", initialState: TodoState(), recorder: recorder)
    return ReducerStore(initialState: TodoState(), reducer: recorded(reduce, by: recording))
}
// End of example
