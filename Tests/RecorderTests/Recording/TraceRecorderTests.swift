import Foundation
import Recorder
import Synchronization
import TestSupport
import Testing

@Suite struct TraceRecorderTests {
    @Test func theHeaderDescribesTheSwiftMachines() throws {
        let sink = MemorySink()
        _ = try TraceRecorder(sink: sink, app: "Shop", machines: ["CatalogStore": CatalogState.self])
        let header = try #require(try jsonObjects(sink.lines).first)
        #expect(header["type"] as? String == "header")
        #expect(header["format"] as? String == "rewind-trace")
        #expect(header["version"] as? Int == 1)
        #expect(header["app"] as? String == "Shop")
        let started = try #require(header["started"] as? String)
        #expect(started.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
        let machines = try #require(header["machines"] as? [String: Any])
        let catalog = try #require(machines["CatalogStore"] as? [String: Any])
        #expect(catalog["initial"] as? String == CatalogState.initialCase.rawValue)
        let transitions = try #require(catalog["transitions"] as? [String: [String]])
        #expect(Set(transitions.keys) == Set(CatalogState.Case.allCases.map(\.rawValue)))
        for source in CatalogState.Case.allCases {
            #expect(transitions[source.rawValue] == CatalogState.transitions(from: source).map(\.rawValue))
        }
    }

    @Test func registerAndTransitionEventsCarryEveryRequiredField() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink, machines: ["CatalogStore": CatalogState.self])
        let store = CatalogStore(recorder: recorder)
        store.toLoading()
        store.finish(["Dune"])
        let counter = Store(initialState: Counter(), recorder: recorder)
        let line = #line + 1  // the line of the `send` below
        counter.send { $0.value = 1 }
        let events = try jsonObjects(Array(sink.lines.dropFirst()))
        #expect(events.count == 5)
        let register = events[0]
        #expect(register["type"] as? String == "register")
        #expect(register["seq"] as? Int == 1)
        #expect(register["store"] as? String == "CatalogStore")
        #expect(register["case"] as? String == "idle")
        #expect(register["state"] as? [String: [String: String]] == ["idle": [:]])
        #expect(register["elapsed"] is Double || register["elapsed"] is Int)

        let load = events[1]
        #expect(load["type"] as? String == "transition")
        #expect(load["seq"] as? Int == 2)
        #expect(load["store"] as? String == "CatalogStore")
        #expect(load["action"] as? String == "toLoading")
        #expect(load["from"] as? String == "idle")
        #expect(load["to"] as? String == "loading")
        #expect(load["changed"] as? Bool == true)
        #expect((load["source"] as? String)?.wholeMatch(of: /TestSupport\/RecordingFixtures\.swift:\d+/) != nil)
        // The action's name defaults to the calling function; the source is the call site.
        #expect(events[4]["action"] as? String == "registerAndTransitionEventsCarryEveryRequiredField")
        #expect(events[4]["source"] as? String == "RecorderTests/TraceRecorderTests.swift:\(line)")

        let finish = events[2]
        #expect(finish["action"] as? String == "finish")
        #expect(finish["to"] as? String == "loaded")
        #expect(finish["args"] as? [String: Int] == ["count": 1])
        let state = try #require(finish["state"] as? [String: [String: [String]]])
        #expect(state == ["loaded": ["_0": ["Dune"]]])
    }

    @Test func anActionThatChangesNothingIsRecordedAsUnchanged() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink, machines: ["CatalogStore": CatalogState.self])
        let store = CatalogStore(recorder: recorder)
        let calls = Mutex(0)
        let token = store.subscribe { _ in calls.withLock { $0 += 1 } }
        store.toLoading()
        store.toLoading()  // loading → loading: illegal, and no change
        let events = try jsonObjects(Array(sink.lines.dropFirst()))
        #expect(events.count == 3)
        #expect(events[2]["changed"] as? Bool == false)
        #expect(events[2]["from"] as? String == "loading")
        #expect(events[2]["to"] as? String == "loading")
        #expect(calls.withLock { $0 } == 2)  // on subscribing, then after the first toLoading only
        _ = token
    }

    @Test func aStoreWithoutAMachineHasNoCases() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink)
        let store = Store(initialState: Counter(), recorder: recorder)
        store.send("increment") { $0.value += 1 }
        let events = try jsonObjects(Array(sink.lines.dropFirst()))
        #expect(events[0]["case"] == nil)
        #expect(events[1]["from"] == nil && events[1]["to"] == nil)
        #expect(events[1]["state"] as? [String: Int] == ["value": 1])
    }

    @Test func redactedKeysNeverReachTheFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("secret.jsonl")
        let recorder = try TraceRecorder(path: path, redactedKeys: ["password", "token", "pin"])
        let account = Account(
            name: "ada", password: "hunter2-secret",
            sessions: [.init(token: "tok-secret-1", user: "ada"), .init(token: "tok-secret-2", user: "bob")],
            extra: ["pin": "pin-secret-1234", "theme": "dark"])
        let store = Store(initialState: account, recorder: recorder)
        store.send("rename", args: ["password": "arg-secret", "name": "grace"]) { $0.name = "grace" }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for secret in ["hunter2-secret", "tok-secret-1", "tok-secret-2", "pin-secret-1234", "arg-secret"] {
            #expect(!text.contains(secret))
        }
        #expect(text.contains("\"password\":\"<redacted>\""))
        #expect(text.contains("\"token\":\"<redacted>\""))
        #expect(text.contains("\"pin\":\"<redacted>\""))
        #expect(text.contains("\"theme\":\"dark\""))
        #expect(text.contains("\"name\":\"grace\""))
    }

    @Test func traceFilesAreCreatedPrivate() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("private.jsonl")
        _ = try TraceRecorder(path: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func anExistingTraceIsNotOverwrittenUnlessAsked() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("existing.jsonl")
        try "keep me\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: TraceFileError.self) { _ = try TraceRecorder(path: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me\n")
        _ = try TraceRecorder(path: path, replacing: true)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try traceLines(at: path).count == 1)
    }

    @Test func aFailingSinkIsReportedOnceAndTheStoreGoesOn() throws {
        let sink = FailingSink(failAfter: 2)
        let failures = Mutex<[RecordingFailure]>([])
        let recorder = try TraceRecorder(sink: sink, onError: { failure in failures.withLock { $0.append(failure) } })
        let store = Store(initialState: Counter(), recorder: recorder)
        for _ in 0..<5 { store.send("increment") { $0.value += 1 } }
        #expect(store.state.value == 5)
        let reported = failures.withLock { $0 }
        #expect(reported.count == 1)
        #expect(reported.first?.kind == .sinkFailed)
        #expect(reported.first?.message.contains("seq 2") == true)
        #expect(sink.written == 2)  // header and register; nothing after the failure
    }

    @Test func twoLiveStoresWithOneNameAreReported() throws {
        let failures = Mutex<[RecordingFailure.Kind]>([])
        let recorder = try TraceRecorder(
            sink: MemorySink(), onError: { failure in failures.withLock { $0.append(failure.kind) } })
        let first = Store(initialState: Counter(), name: "Same", recorder: recorder)
        do { _ = Store(initialState: Counter(), name: "Other", recorder: recorder) }
        do { _ = Store(initialState: Counter(), name: "Other", recorder: recorder) }  // the first is gone
        #expect(failures.withLock { $0 }.isEmpty)
        let second = Store(initialState: Counter(), name: "Same", recorder: recorder)
        #expect(failures.withLock { $0 } == [.duplicateStoreName])
        _ = (first, second)
    }

    @Test func aStateThatCannotBeEncodedIsRecordedAsNull() throws {
        let sink = MemorySink()
        let failures = Mutex<[RecordingFailure.Kind]>([])
        let recorder = try TraceRecorder(
            sink: sink, onError: { failure in failures.withLock { $0.append(failure.kind) } })
        let store = Store(initialState: Fussy(fail: false), recorder: recorder)
        store.send("breakIt") { $0.fail = true }
        let events = try jsonObjects(Array(sink.lines.dropFirst()))
        #expect(events[1]["state"] is NSNull)
        #expect(failures.withLock { $0 } == [.encodingFailed])
    }
}

struct Fussy: Equatable, Encodable, Sendable {
    var fail: Bool
    struct Refused: Error {}
    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(1)
        if fail { throw Refused() }
    }
}

final class FailingSink: TraceSink {
    private let count = Mutex(0)
    let failAfter: Int
    init(failAfter: Int) { self.failAfter = failAfter }
    var written: Int { count.withLock { $0 } }
    func write(_ line: UnsafeRawBufferPointer) throws {
        try count.withLock { count in
            guard count < failAfter else { throw TraceFileError(path: "test", operation: "write", code: 28) }
            count += 1
        }
    }
}
