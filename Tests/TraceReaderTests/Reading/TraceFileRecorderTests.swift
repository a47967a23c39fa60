import Dispatch
import Synchronization
import TestSupport
import Testing

@testable import Recorder
@testable import TraceJSON
@testable import TraceReader

/// Traces written by the real `TraceRecorder`, read back.
@Suite struct TraceFileRecorderTests {
    typealias F = ReaderFixture

    /// Records a short session of a catalog and a counter on `recorder`.
    private func recordSession(on recorder: TraceRecorder) {
        let catalog = CatalogStore(recorder: recorder)
        let counter = Store(initialState: Counter(), recorder: recorder)  // named "Counter", after its state
        catalog.toLoading()
        counter.send { $0.value += 1 }
        catalog.finish(["Dune", "Emma"])
        catalog.toLoading()
        counter.send { $0.value += 0 }
    }

    @Test func aTraceRecordedInMemoryReadsBackEventByEvent() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink, app: "Shop", machines: ["CatalogStore": CatalogState.self])
        recordSession(on: recorder)
        let lines = sink.lines
        let trace = try TraceFile(bytes: sink.data)

        #expect(trace.issues.isEmpty)
        #expect(trace.header.app == "Shop")
        #expect(trace.header.machines == ["CatalogStore": MachineSpec(CatalogState.self)])
        #expect(trace.eventCount == lines.count - 1)
        #expect(trace.lastStep == lines.count - 1)
        #expect(trace.storeNames == ["CatalogStore", "Counter"])
        for index in 0..<trace.eventCount {
            let event = try #require(trace.event(at: index))
            let written = try #require(try JSONParser.parse(lines[index + 1]).objectValue)
            #expect(event.line == index + 2)
            #expect(event.seq == written["seq"]?.intValue)
            #expect(event.type == written["type"]?.stringValue)
            #expect(event.store == written["store"]?.stringValue)
            #expect(event.action == written["action"]?.stringValue)
            #expect(event.from == written["from"]?.stringValue)
            #expect(event.to == written["to"]?.stringValue)
            #expect(event.caseName == written["case"]?.stringValue)
            #expect(event.changed == written["changed"]?.boolValue)
            #expect(event.source == written["source"]?.stringValue)
            #expect(event.elapsed == written["elapsed"]?.doubleValue)
            #expect(event.args == written["args"]?.objectValue)
            #expect(event.state == written["state"])
        }
        let expected = F.replay(lines, through: trace.lastStep)
        for step in 0...trace.lastStep {
            #expect(trace.appState(atStep: step) == expected[step], "step \(step)")
        }
        // The last action changed nothing, and is still an event of its own.
        #expect(trace.event(at: trace.eventCount - 1)?.changed == false)
        #expect(trace.appState(atStep: trace.lastStep) == trace.appState(atStep: trace.lastStep - 1))
    }

    @Test func statesDecodeBackIntoTheAppsOwnTypesAtEveryStep() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink, app: "Shop", machines: ["CatalogStore": CatalogState.self])
        recordSession(on: recorder)
        let trace = try TraceFile(bytes: sink.data)
        var catalog: CatalogState?
        var counter: Counter?
        for step in 0...trace.lastStep {
            if let index = trace.eventIndex(atStep: step), let event = trace.event(at: index), let state = event.state {
                // What the step's event recorded, decoded from its JSONValue: the typed read must agree.
                if event.store == "CatalogStore" {
                    catalog = try JSONValueDecoder().decode(CatalogState.self, from: state)
                }
                if event.store == "Counter" { counter = try JSONValueDecoder().decode(Counter.self, from: state) }
            }
            #expect(try trace.state(of: "CatalogStore", atStep: step, as: CatalogState.self) == catalog, "step \(step)")
            #expect(try trace.state(of: "Counter", atStep: step, as: Counter.self) == counter, "step \(step)")
        }
        #expect(catalog == .loading && counter?.value == 1)
        #expect(try trace.state(of: "Nobody", atStep: trace.lastStep, as: Counter.self) == nil)
        // A state of another shape is a DecodingError, not nil.
        #expect(throws: DecodingError.self) {
            try trace.state(of: "Counter", atStep: trace.lastStep, as: CatalogState.self)
        }
    }

    @Test func aTraceRecordedToAFileReadsBackWhileTheRecorderStillHasItOpen() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("run.jsonl")
        let recorder = try TraceRecorder(path: path, machines: ["CatalogStore": CatalogState.self])
        recordSession(on: recorder)
        let trace = try TraceFile(path: path)
        let lines = try traceLines(at: path)
        #expect(trace.issues.isEmpty)
        #expect(trace.eventCount == lines.count - 1)
        let catalog = try #require(trace.state(of: "CatalogStore", atStep: trace.lastStep))
        #expect(catalog == .object(["loading": .object([:])]))
        #expect(trace.appState(atStep: trace.lastStep) == F.replay(lines, atStep: trace.lastStep))

        // The recorder goes on; the open trace keeps what it indexed, a new one sees more.
        CatalogStore(recorder: recorder).toLoading()
        #expect(trace.eventCount == lines.count - 1)
        #expect(try TraceFile(path: path).eventCount == lines.count + 1)
    }

    @Test func manyThreadsMayReadOneTraceAtOnce() throws {
        let folder = try TemporaryFolder()
        let lines = F.generated(events: 500)
        let path = try F.write(Array(F.text(lines).utf8), named: "shared.jsonl", in: folder)
        let trace = try TraceFile(path: path)
        let expected = (0...500).map { trace.appState(atStep: $0) }
        let mismatches = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for step in stride(from: worker, through: 500, by: 8) where trace.appState(atStep: step) != expected[step] {
                mismatches.withLock { $0 += 1 }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
        #expect(expected[500] == F.replay(lines, atStep: 500))
    }
}
