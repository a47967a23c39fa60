import Foundation
import Recorder
import Synchronization
import TestSupport
import Testing
import TraceReader

/// A machine never goes unchecked: every store whose state is a machine writes its machine in its
/// register event, whatever the store is named and whatever the recorder was told.
@Suite struct RegisterMachineTests {
    /// The register events of `lines`, by line.
    static func registers(_ lines: [String]) throws -> [[String: Any]] {
        try jsonObjects(lines).filter { $0["type"] as? String == "register" }
    }

    /// `CatalogState`'s machine as the format writes it.
    static var catalogMachine: [String: Any] {
        var transitions: [String: [String]] = [:]
        for source in CatalogState.Case.allCases {
            transitions[source.rawValue] = CatalogState.transitions(from: source).map(\.rawValue)
        }
        return ["initial": CatalogState.initialCase.rawValue, "transitions": transitions]
    }

    static func isCatalogMachine(_ value: Any?) -> Bool {
        guard let machine = value as? [String: Any], machine["initial"] as? String == "idle",
            let transitions = machine["transitions"] as? [String: [String]]
        else { return false }
        return transitions == (catalogMachine["transitions"] as? [String: [String]])
    }

    @Test func everyMachineStoreCarriesItsMachineWhateverItsName() throws {
        let sink = MemorySink()
        // The pin names a store that does not exist; the stores are named otherwise.
        let recorder = try TraceRecorder(sink: sink, machines: ["DocumentsStore": CatalogState.self])
        let first = Store(initialState: CatalogState.idle, name: "Editor-1", recorder: recorder)
        let second = Store(initialState: CatalogState.idle, name: "Editor-2", recorder: recorder)
        let plain = Store(initialState: Counter(), name: "Counter", recorder: recorder)
        first.send("toLoading") { $0 = .loading }
        first.send("toLoading") { $0 = .loading }  // loading → loading: illegal
        let registers = try Self.registers(sink.lines)
        #expect(registers.count == 3)
        #expect(Self.isCatalogMachine(registers[0]["machine"]) && Self.isCatalogMachine(registers[1]["machine"]))
        #expect(registers[2]["machine"] == nil)
        // The key order the format shows: machine before the state.
        #expect(
            sink.lines[1].contains(#""case":"idle","machine":{"initial":"idle","transitions":{"idle":["loading"],"#))
        _ = (second, plain)

        // The register's machine is a machine the validator takes (here given as --spec would
        // give it), and it catches the illegal transition of a store no list names.
        let machineJSON = try JSONSerialization.data(withJSONObject: [
            "machines": ["Editor-1": registers[0]["machine"]!]
        ])
        let machines = try SpecFile.machines(in: [UInt8](machineJSON), file: "register")
        let report = TraceValidator(machines: machines).validate(bytes: sink.data)
        #expect(report.problems.map(\.kind) == [.illegal])
    }

    @Test func aListBuiltAtRunTimePinsTheHeaderOnceAndDuplicatesAreReported() throws {
        let sink = MemorySink()
        let failures = Mutex<[RecordingFailure]>([])
        var machines = MachineList()
        for name in ["CatalogStore", "Other", "CatalogStore"] { machines.append(CatalogState.self, as: name) }
        _ = try TraceRecorder(
            sink: sink, machines: machines, onError: { failure in failures.withLock { $0.append(failure) } })
        let header = try #require(try jsonObjects(sink.lines).first)
        #expect((header["machines"] as? [String: Any])?.keys.sorted() == ["CatalogStore", "Other"])
        #expect(sink.lines[0].components(separatedBy: #""CatalogStore":"#).count == 2)
        // A header that names a store twice is one no reader accepts; this one opens.
        #expect(try TraceFile(bytes: sink.data).header.machines.count == 2)
        let reported = failures.withLock { $0 }
        #expect(reported.map(\.kind) == [.duplicateMachine])
        #expect(reported.first?.message.contains("\"CatalogStore\"") == true)

        // The literal form too, with the same name twice.
        let literal = MemorySink()
        let literalFailures = Mutex<[RecordingFailure.Kind]>([])
        _ = try TraceRecorder(
            sink: literal, machines: ["S": CatalogState.self, "S": CatalogState.self],
            onError: { failure in literalFailures.withLock { $0.append(failure.kind) } })
        #expect(try TraceFile(bytes: literal.data).header.machines.keys.sorted() == ["S"])
        #expect(literalFailures.withLock { $0 } == [.duplicateMachine])
    }

    enum Door: String, CaseIterable, Codable, Sendable { case open, shut }

    struct DoorState: StateMachine, Equatable, Codable, Sendable {
        var door: Door
        var currentCase: Door { door }
        static let initialCase = Door.shut
        static func transitions(from source: Door) -> [Door] { source == .open ? [.shut] : [.open] }
    }

    @Test func aPinThatDisagreesWithTheStoresOwnMachineIsReported() throws {
        let sink = MemorySink()
        let failures = Mutex<[RecordingFailure.Kind]>([])
        let recorder = try TraceRecorder(
            sink: sink, machines: ["Front": CatalogState.self, "Back": DoorState.self],
            onError: { failure in failures.withLock { $0.append(failure.kind) } })
        _ = Store(initialState: DoorState(door: .shut), name: "Back", recorder: recorder)
        #expect(failures.withLock { $0 }.isEmpty)
        _ = Store(initialState: DoorState(door: .shut), name: "Front", recorder: recorder)
        #expect(failures.withLock { $0 } == [.machineMismatch])
        let registers = try Self.registers(sink.lines)
        #expect((registers[1]["machine"] as? [String: Any])?["initial"] as? String == "shut")
    }

    @Test func theRegistersOfANewFileCarryTheMachineToo() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("rolling.jsonl")
        let recorder = try TraceRecorder(path: path, maximumBytes: 4096)
        let catalog = Store(initialState: CatalogState.idle, name: "Catalog-A", recorder: recorder)
        let counter = Store(initialState: Counter(), name: "Counter", recorder: recorder)
        catalog.send("toLoading") { $0 = .loading }
        for _ in 0..<200 { counter.send("increment") { $0.value += 1 } }
        let second = try Self.registers(try traceLines(at: folder.path("rolling-2.jsonl")))
        #expect(second.map { $0["store"] as? String } == ["Catalog-A", "Counter"])
        #expect(second[0]["case"] as? String == "loading")
        #expect(Self.isCatalogMachine(second[0]["machine"]))
        #expect(second[1]["machine"] == nil)
    }
}
