import Recorder

enum Door: StateMachine, Equatable, Codable, Sendable {
    case closed, open

    enum Case: String, CaseIterable, Sendable { case closed, open }
    static let initialCase = Case.closed
    var currentCase: Case { self == .open ? .open : .closed }
    static func transitions(from source: Case) -> [Case] {
        switch source {
        case .closed: [.open]
        case .open: [.closed]
        }
    }
}

final class DoorStore: Store<Door>, @unchecked Sendable {
    func open() { send { $0 = .open } }
    func close() { send { $0 = .closed } }
}

let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "door.jsonl"
let recorder = try TraceRecorder(path: path, replacing: true, app: "MinimalRecordingApp")
let door = DoorStore(initialState: .closed, recorder: recorder)
door.open()
door.close()
