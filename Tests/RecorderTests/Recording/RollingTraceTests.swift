import Foundation
import Recorder
import Synchronization
import TestSupport
import Testing
import TraceReader

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
            // Within the cap, and full: the next event did not fit.
            let size = try #require(attributes[.size] as? Int)
            #expect(size <= 4096)
            if index < files.count - 1 { #expect(size > 4096 - 200) }
            #expect(TraceValidator().validate(bytes: Array(FileManager.default.contents(atPath: file)!)).errors == 0)
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

@Suite struct RollingTraceLimitTests {
    struct Big: Equatable, Codable, Sendable {
        var lines: [String] = []
        static let large = Big(lines: (0..<100).map { "line \($0) of a state far larger than the cap, \($0 * 7919)" })
    }

    /// The trace's files, in order, by name: `name.jsonl`, `name-2.jsonl`, …
    func files(_ folder: TemporaryFolder, _ name: String) -> [String] {
        var files = [folder.path("\(name).jsonl")]
        var number = 2
        while FileManager.default.fileExists(atPath: folder.path("\(name)-\(number).jsonl")) {
            files.append(folder.path("\(name)-\(number).jsonl"))
            number += 1
        }
        return files
    }

    /// The events of a file after its opening (the header, and the registers that start a
    /// later file), parsed.
    func eventsAfterOpening(_ path: String, isFirst: Bool) throws -> [[String: Any]] {
        let events = try jsonObjects(Array(try traceLines(at: path).dropFirst()))
        return isFirst ? events : Array(events.drop { $0["type"] as? String == "register" })
    }

    @Test func anEventLargerThanTheCapGetsAFileOfItsOwn() throws {
        let folder = try TemporaryFolder()
        let recorder = try TraceRecorder(path: folder.path("big.jsonl"), maximumBytes: 4096)
        let counter = Store(initialState: Counter(), name: "Counter", recorder: recorder)
        let big = Store(initialState: Big(), name: "Big", recorder: recorder)
        for _ in 0..<40 { counter.send("increment") { $0.value += 1 } }
        big.send("grow") { $0 = .large }
        big.send("shrink") { $0 = Big() }
        for _ in 0..<40 { counter.send("increment") { $0.value += 1 } }

        let files = files(folder, "big")
        let grown = try #require(
            try files.enumerated().first { index, file in
                try eventsAfterOpening(file, isFirst: index == 0).contains { $0["action"] as? String == "grow" }
            })
        // The file of `grow` holds its opening and that one event.
        let events = try eventsAfterOpening(grown.element, isFirst: grown.offset == 0)
        #expect(events.count == 1)
        for (index, file) in files.enumerated() {
            let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
            if size > 4096 {
                // Only a file whose opening and first event do not fit passes the cap.
                #expect(try eventsAfterOpening(file, isFirst: index == 0).count == 1, "\(file): \(size) bytes")
            }
            #expect(TraceValidator().validate(bytes: Array(FileManager.default.contents(atPath: file)!)).errors == 0)
        }
        #expect(try traceLines(at: files.last!).last?.contains("\"value\":80") == true)
    }

    @Test func aStateLargerThanTheCapGivesOneEventPerFile() throws {
        let folder = try TemporaryFolder()
        let recorder = try TraceRecorder(path: folder.path("large.jsonl"), maximumBytes: 4096)
        let big = Store(initialState: Big.large, name: "Big", recorder: recorder)
        for index in 0..<3 { big.send("edit") { $0.lines[0] = "edit \(index)" } }
        let files = files(folder, "large")
        // The first file: the header and the register; then one file per action.
        #expect(files.count == 4)
        for (index, file) in files.enumerated() {
            let events = try eventsAfterOpening(file, isFirst: index == 0)
            #expect(events.count == 1)
            #expect(events[0]["type"] as? String == (index == 0 ? "register" : "transition"))
        }
    }

    @Test func anEventMovedToANewFileIsRenumberedAndKeepsItsCauseOnlyThere() throws {
        let folder = try TemporaryFolder()
        let recorder = try TraceRecorder(path: folder.path("moved.jsonl"), maximumBytes: 4096)
        let source = Store(initialState: Counter(), name: "Source", recorder: recorder)
        let follower = Store(initialState: Counter(), name: "Follower", recorder: recorder)
        let token = source.subscribe { state in follower.send("follow") { $0.value = state.value } }
        for _ in 0..<150 { source.send("increment") { $0.value += 1 } }
        for file in files(folder, "moved") {
            let events = try jsonObjects(Array(try traceLines(at: file).dropFirst()))
            #expect(events.map { $0["seq"] as? Int } == Array(1...events.count).map { $0 })
            for (index, event) in events.enumerated() where event["action"] as? String == "follow" {
                // A follow comes right after the increment that caused it, in the same file, or
                // first in a new file, whose opening registers the source at that increment.
                let before = events[index - 1]
                if before["action"] as? String == "increment" {
                    #expect(event["cause"] as? Int == before["seq"] as? Int)
                    #expect((event["state"] as? [String: Int]) == (before["state"] as? [String: Int]))
                } else {
                    #expect(event["cause"] == nil)
                }
            }
        }
        _ = token
    }

    @Test func aPipeWhereALaterFileWouldGoIsSkipped() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("run.jsonl")
        #expect(mkfifo(folder.path("run-2.jsonl"), 0o600) == 0)
        let sink = try RollingFileSink(path: path, maximumBytes: 4096)
        let failures = Mutex<[RecordingFailure]>([])
        let recorder = try TraceRecorder(sink: sink, onError: { failure in failures.withLock { $0.append(failure) } })
        let counter = Store(initialState: Counter(), name: "Counter", recorder: recorder)
        while sink.files.count < 2 { counter.send("increment") { $0.value += 1 } }

        #expect(failures.withLock { $0.isEmpty })
        #expect(sink.files == [path, folder.path("run-3.jsonl")])
        var status = stat()
        #expect(lstat(folder.path("run-2.jsonl"), &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func laterFilesNeverOverwriteFollowOrDeleteWhatTheyDidNotCreate() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("run.jsonl")
        // An earlier run's second file, and a link planted where the third would go.
        try Data("an earlier run\n".utf8).write(to: URL(fileURLWithPath: folder.path("run-2.jsonl")))
        try Data("not a trace\n".utf8).write(to: URL(fileURLWithPath: folder.path("target.txt")))
        try FileManager.default.createSymbolicLink(
            atPath: folder.path("run-3.jsonl"), withDestinationPath: "target.txt")

        let sink = try RollingFileSink(path: path, maximumBytes: 4096, maximumFiles: 2)
        let failures = Mutex<[RecordingFailure]>([])
        let recorder = try TraceRecorder(sink: sink, onError: { failure in failures.withLock { $0.append(failure) } })
        let counter = Store(initialState: Counter(), name: "Counter", recorder: recorder)
        var sent = 0
        while sink.files.count < 2 {
            counter.send("increment") { $0.value += 1 }
            sent += 1
        }
        // The sink's own first file, replaced by someone else before the sink deletes it.
        try FileManager.default.removeItem(atPath: path)
        try Data("someone else's\n".utf8).write(to: URL(fileURLWithPath: path))
        for _ in 0..<200 { counter.send("increment") { $0.value += 1 } }

        #expect(failures.withLock { $0.isEmpty })
        #expect(try String(contentsOfFile: folder.path("run-2.jsonl"), encoding: .utf8) == "an earlier run\n")
        #expect(try String(contentsOfFile: folder.path("target.txt"), encoding: .utf8) == "not a trace\n")
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("run-3.jsonl")) == "target.txt")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "someone else's\n")
        // The sink skipped the taken names, and kept the newest two of its own files.
        let kept = sink.files
        #expect(kept.count == 2)
        #expect(!kept.contains(folder.path("run-2.jsonl")) && !kept.contains(folder.path("run-3.jsonl")))
        #expect(!FileManager.default.fileExists(atPath: folder.path("run-4.jsonl")))
        for file in kept {
            #expect(try traceLines(at: file).first?.contains("\"type\":\"header\"") == true)
        }
        #expect(try traceLines(at: kept[1]).last?.contains("\"value\":\(sent + 200)") == true)
    }
}
