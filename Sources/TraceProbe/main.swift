// A child process for Rewind's crash tests: it records actions to a trace and says on standard
// output when each one has returned, so a test can kill it (SIGKILL) at a known point, or see it
// trap on an illegal transition, and then read what reached the file.
//
//   TraceProbe PATH COUNT [--trap-at N] [--pause-after N] [--inventory] [--inside-action read|send]
//
// Prints `ready` after the header, then `sent K` after action K returns. With --pause-after N it
// stops after action N and waits to be killed. With --trap-at N, action N is an illegal
// transition on a store whose policy is `.trap`. With --inventory, each action also changes a
// store whose state holds dictionaries and sets (whose order Swift randomizes per process), for
// the test that two runs record the same bytes. With --inside-action, the first action reads the
// store's state (`read`) or sends it another action (`send`) from inside its closure, which must
// stop the process with a message instead of waiting forever. At the end it prints
// `SIGXFSZ default` when the recorder left that signal's action as it found it (the fault tests
// check that it does).
//
//   TraceProbe --app-launch
//
// Runs README.md's code of an app's launch (`AppLaunch`): prints `Rewind records to PATH` and
// records one action to PATH, in the Application Support folder (`XDG_DATA_HOME` on Linux).

import Recorder

#if canImport(Glibc)
    import Glibc
#endif

enum Light: String, CaseIterable, Codable { case off, on, broken }

struct LightState: StateMachine, Equatable, Codable, Sendable {
    var light: Light
    var switches: Int
    var log: [String]

    var currentCase: Light { light }
    static let initialCase = Light.off
    static func transitions(from source: Light) -> [Light] {
        switch source {
        case .off: [.on, .broken]
        case .on: [.off, .broken]
        case .broken: []
        }
    }
}

final class LightStore: Store<LightState>, @unchecked Sendable {
    func toggle() {
        send { state in
            state.light = state.light == .on ? .off : .on
            state.switches += 1
            state.log.append("switch \(state.switches)")
            if state.log.count > 8 { state.log.removeFirst() }
        }
    }

    func stayOn() {
        send { $0.light = .on }
    }

    /// Reads the state from inside the action's closure: the mistake the store must trap.
    func countFromInside() {
        send { $0.switches = self.state.switches + 1 }
    }

    /// Sends an action from inside the action's closure: the other mistake the store must trap.
    func toggleFromInside() {
        send { _ in self.toggle() }
    }
}

enum Shelf: String, Codable, Hashable, Sendable { case top, middle, bottom }

/// Dictionaries and sets of every kind the recorder orders.
struct InventoryState: Equatable, Codable, Sendable {
    var stock: [String: Int] = [:]
    var tags: Set<String> = []
    var shelves: [Shelf: [String]] = [:]
    var byCount: [Int: Set<String>] = [:]
}

final class InventoryStore: Store<InventoryState>, @unchecked Sendable {
    func receive(_ index: Int) {
        send(args: ["index": index]) { state in
            let item = "item-\(index % 13)"
            state.stock[item, default: 0] += index
            state.tags.insert("tag-\(index % 7)")
            state.shelves[[Shelf.top, .middle, .bottom][index % 3], default: []].append(item)
            state.byCount[index % 5, default: []].insert(item)
        }
    }
}

func say(_ text: String) {
    let line = text + "\n"
    _ = line.withCString { write(1, $0, strlen($0)) }
}

/// Whether SIGXFSZ still has the action a process starts with.
func fileSizeSignalHasItsDefaultAction() -> Bool {
    var current = sigaction()
    guard sigaction(SIGXFSZ, nil, &current) == 0 else { return false }
    #if os(Linux)
        // The handler is a C function pointer; SIG_DFL is the null one.
        return current.__sigaction_handler.sa_handler == nil
    #else
        return current.__sigaction_u.__sa_handler == nil
    #endif
}

let arguments = CommandLine.arguments
if arguments.count == 2 && arguments[1] == "--app-launch" {
    do {
        try AppLaunch.run()
    } catch {
        say("error: \(error)")
        exit(1)
    }
    exit(0)
}
guard arguments.count >= 3, let count = Int(arguments[2]) else {
    say("usage: TraceProbe PATH COUNT [--trap-at N] [--pause-after N]")
    exit(2)
}
func option(_ name: String) -> Int? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return Int(arguments[index + 1])
}
let trapAt = option("--trap-at")
let pauseAfter = option("--pause-after")
let inventoryWanted = arguments.contains("--inventory")
let insideAction = arguments.firstIndex(of: "--inside-action").flatMap {
    $0 + 1 < arguments.count ? arguments[$0 + 1] : nil
}

do {
    let recorder = try TraceRecorder(path: arguments[1], app: "TraceProbe", machines: ["LightStore": LightState.self])
    let store = LightStore(
        initialState: LightState(light: .off, switches: 0, log: []), recorder: recorder,
        policy: trapAt == nil ? .record : .trap)
    let inventory = inventoryWanted ? InventoryStore(initialState: InventoryState(), recorder: recorder) : nil
    say("ready")
    switch insideAction {
    case "read": store.countFromInside()
    case "send": store.toggleFromInside()
    default: break
    }
    for index in 1...max(count, 1) {
        inventory?.receive(index)
        if index == trapAt {
            // on → on is not in the table: recorded, synchronized, then the store traps.
            if store.state.light != .on { store.toggle() }
            store.stayOn()
        } else {
            store.toggle()
        }
        say("sent \(index)")
        if index == pauseAfter {
            while true { pause() }
        }
    }
    if fileSizeSignalHasItsDefaultAction() { say("SIGXFSZ default") }
} catch {
    say("error: \(error)")
    exit(1)
}
