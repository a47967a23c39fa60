import Foundation
import Recorder
import TestSupport
import Testing

@Suite struct RollingTraceTests {
    @Test func aFullFileContinuesInANewOneThatStandsAlone() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("long.jsonl")
        let recorder = try TraceRecorder(
            path: path, maximumBytes: 4096, app: "Long", machines: ["CatalogStore": CatalogState.self])
        let catalog = CatalogStore(recorder: recorder)
        let counter = Store(initialState: Counter(), name: "Counter", recorder: recorder)
        catalog.toLoading()
        for _ in 0..<200 { counter.send("increment") { $0.value += 1 } }
        #expect(FileManager.default.fileExists(atPath: folder.path("long-2.jsonl")))

        var files = [path]
        var number = 2
        while FileManager.default.fileExists(atPath: folder.path("long-\(number).jsonl")) {
            files.append(folder.path("long-\(number).jsonl"))
            number += 1
        }
        #expect(files.count > 3)
        var lastValue = -1
        for (index, file) in files.enumerated() {
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            let lines = try traceLines(at: file)
            let objects = try jsonObjects(lines)
            #expect(objects[0]["type"] as? String == "header")
            #expect((objects[0]["machines"] as? [String: Any])?["CatalogStore"] != nil)
            let events = Array(objects.dropFirst())
            #expect(events.map { $0["seq"] as? Int } == Array(1...events.count).map { $0 })
            if index > 0 {
                // A new file starts by registering every live store at its current state.
                #expect(events[0]["type"] as? String == "register" && events[0]["store"] as? String == "CatalogStore")
                #expect(events[0]["case"] as? String == "loading")
                #expect(events[1]["type"] as? String == "register" && events[1]["store"] as? String == "Counter")
                #expect((events[1]["state"] as? [String: Int])?["value"] == lastValue)
            }
            let values = events.filter { $0["store"] as? String == "Counter" }.compactMap {
                ($0["state"] as? [String: Int])?["value"]
            }
            lastValue = values.last ?? lastValue
            if index < files.count - 1 {
                let size = try #require(attributes[.size] as? Int)
                #expect(size >= 4096 && size < 4096 + 200)
            }
        }
        #expect(lastValue == 200)
    }

    @Test func onlyTheNewestFilesAreKept() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("capped.jsonl")
        let recorder = try TraceRecorder(path: path, maximumBytes: 4096, maximumFiles: 3)
        let counter = Store(initialState: Counter(), name: "Counter", recorder: recorder)
        for _ in 0..<400 { counter.send("increment") { $0.value += 1 } }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(names.count == 3)
        #expect(!names.contains("capped.jsonl"))
    }

    @Test func aCauseFromAnEarlierFileIsLeftOut() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("causes.jsonl")
        let recorder = try TraceRecorder(path: path, maximumBytes: 4096)
        let source = Store(initialState: Counter(), name: "Source", recorder: recorder)
        let follower = Store(initialState: Counter(), name: "Follower", recorder: recorder)
        let token = source.subscribe { state in follower.send("follow") { $0.value = state.value } }
        for _ in 0..<150 { source.send("increment") { $0.value += 1 } }
        var number = 1
        var file = path
        while FileManager.default.fileExists(atPath: file) {
            let events = try jsonObjects(Array(try traceLines(at: file).dropFirst()))
            let seqs = Set(events.compactMap { $0["seq"] as? Int })
            for event in events where event["action"] as? String == "follow" {
                if let cause = event["cause"] as? Int {
                    #expect(seqs.contains(cause))
                    let causing = events.first { $0["seq"] as? Int == cause }
                    #expect(causing?["store"] as? String == "Source")
                }
            }
            number += 1
            file = folder.path("causes-\(number).jsonl")
        }
        #expect(number > 2)
        _ = token
    }
}
