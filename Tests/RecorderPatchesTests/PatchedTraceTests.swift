import Foundation
import Recorder
import TestSupport
import Testing
import TraceReader

@testable import RecorderPatches

/// What a version 2 trace holds besides its patches: the header's version, the whole states the
/// format asks for, redaction, store names shared by two stores, rolling files, threads.
@Suite struct PatchedTraceTests {
    struct Item: Codable, Equatable, Sendable {
        var name: String
        var quantity: Int
        var flagged: Bool
        var password: String
    }

    struct Inventory: Codable, Equatable, Sendable {
        var items: [Item]
        var pin: Secret<String>?
        var version = 0
    }

    static func inventory(_ count: Int) -> Inventory {
        Inventory(
            items: (0..<count).map {
                Item(name: "item \($0)", quantity: $0, flagged: $0 % 2 == 0, password: "pw-\($0)")
            },
            pin: nil)
    }

    @Test func theHeaderSaysVersion2OnlyWhenPatchesWereAskedFor() throws {
        for (patches, version) in [(TraceRecorder.Patches.never, 1), (.automatic(), 2)] {
            let sink = MemorySink()
            let store = Store(
                initialState: Self.inventory(100), name: "Inventory",
                recorder: try TraceRecorder(sink: sink, patches: patches))
            for step in 0..<20 { store.send("count") { $0.items[step].quantity += 1 } }
            let rebuilt = try RebuiltStates(sink.data)
            #expect(rebuilt.version == version)
            #expect(rebuilt.patchCount == (version == 1 ? 0 : 20))
        }
    }

    /// A state under 1 KB is cheaper to write than to compare: it stays whole, as in version 1.
    @Test func aSmallStateIsWrittenWhole() throws {
        let sink = MemorySink()
        let store = Store(
            initialState: Self.inventory(3), name: "Inventory",
            recorder: try TraceRecorder(sink: sink, patches: .automatic()))
        for step in 0..<10 { store.send("count") { $0.items[step % 3].quantity += 1 } }
        // Grown past 1 KB, it records patches.
        store.send("grow") { $0.items += Self.inventory(40).items }
        for step in 0..<10 { store.send("count") { $0.items[step].quantity += 1 } }
        let rebuilt = try RebuiltStates(sink.data)
        #expect(
            rebuilt.events.map { $0.patch != nil } == Array(repeating: false, count: 12)
                + Array(repeating: true, count: 10))
    }

    /// The format's rule: a whole state again once the patches since the last one would add up
    /// to more bytes than it, or number more than 1,024.
    @Test func wholeStatesComeBackAsTheFormatSays() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink, patches: .automatic())
        // Small patches to a large state: a whole state after every 1,024.
        let large = Store(initialState: Self.inventory(1_000), name: "Large", recorder: recorder)
        // The same patches to a state of 1.5 KB: a whole state every few of them.
        let small = Store(initialState: Self.inventory(20), name: "Small", recorder: recorder)
        for step in 0..<2_100 { large.send("count") { $0.items[step % 1_000].quantity += 1 } }
        for step in 0..<100 { small.send("count") { $0.items[step % 20].quantity += 1 } }
        // A patch larger than the state before it: every item changes, and grows.
        for step in 0..<5 {
            let name = "\(step)" + String(repeating: "x", count: 100)
            small.send("all") {
                $0.items = $0.items.map { _ in Item(name: name, quantity: 0, flagged: true, password: "") }
            }
        }
        let rebuilt = try RebuiltStates(sink.data)
        var since: [String: (wholeBytes: Int, patchBytes: Int, patches: Int)] = [:]
        var wholes: [String: [Int]] = [:]
        for event in rebuilt.events {
            guard event.patch != nil, var counted = since[event.store] else {
                wholes[event.store, default: []].append(event.seq)
                since[event.store] = (event.bytes, 0, 0)
                continue
            }
            counted.patchBytes += event.bytes
            counted.patches += 1
            #expect(
                counted.patchBytes <= counted.wholeBytes,
                "seq \(event.seq): the patches since the last whole state outweigh it")
            #expect(counted.patches <= 1_024, "seq \(event.seq)")
            since[event.store] = counted
        }
        #expect(wholes["Large"] == [1, 1_027, 2_052])
        #expect((wholes["Small"]?.count ?? 0) > 5)
        #expect(rebuilt.events[rebuilt.events.count - 5].patch == nil)
        #expect(TraceValidator().validate(bytes: sink.data).problems.isEmpty)
    }

    /// Redaction applies to the values of a patch as to a state, and a `Secret` is never in a
    /// patch in clear.
    @Test func patchesAreRedactedAsStatesAre() throws {
        let sink = MemorySink()
        let store = Store(
            initialState: Self.inventory(50), name: "Inventory",
            recorder: try TraceRecorder(sink: sink, redactedKeys: ["password"], patches: .automatic()))
        store.send("password") { $0.items[3].password = "hunter2-changed" }
        store.send("add") { $0.items.append(Item(name: "new", quantity: 1, flagged: true, password: "hunter2-added")) }
        store.send("pin") { $0.pin = Secret("secret-pin-1234") }
        store.send("pin") { $0.pin = Secret("secret-pin-5678") }
        store.send("insert") {
            $0.items.insert(Item(name: "first", quantity: 0, flagged: false, password: "hunter2-first"), at: 0)
        }
        let text = sink.text
        for secret in ["hunter2", "pw-", "secret-pin"] { #expect(!text.contains(secret), "\(secret) in the trace") }
        let rebuilt = try RebuiltStates(sink.data)
        #expect(rebuilt.patchCount == 5)
        #expect(
            rebuilt.events.last?.state == (try StateEncoder(redactedKeys: ["password"]).encodeToString(store.state)))
    }

    /// Two live stores with one name: their events interleave, so neither can be patched from
    /// the last state recorded under the name, and both write whole states until one ends.
    @Test func twoStoresOfOneNameWriteWholeStates() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink, patches: .automatic(), onError: { _ in })
        let first = Store(initialState: Self.inventory(60), name: "Inventory", recorder: recorder)
        var second: Store<Inventory>? = Store(initialState: Self.inventory(80), name: "Inventory", recorder: recorder)
        for step in 0..<5 {
            first.send("count") { $0.items[step].quantity += 1 }
            second?.send("count") { $0.items[step].quantity += 2 }
        }
        second = nil
        for step in 0..<5 { first.send("count") { $0.items[step].quantity += 1 } }
        let rebuilt = try RebuiltStates(sink.data)
        let transitions = rebuilt.events.filter { $0.type == "transition" }
        #expect(
            transitions.map { $0.patch != nil } == Array(repeating: false, count: 11) + Array(repeating: true, count: 4)
        )
        #expect(transitions.last?.state == (try StateEncoder().encodeToString(first.state)))
        #expect(TraceValidator().validate(bytes: sink.data).problems.isEmpty)
    }

    struct Fragile: Encodable, Equatable, Sendable {
        var items: [Item]
        var broken = false
        struct Broken: Error {}
        func encode(to encoder: any Encoder) throws {
            if broken { throw Broken() }
            var container = encoder.unkeyedContainer()
            try container.encode(items)
        }
    }

    /// A state that fails to encode is recorded as null, and the next one whole.
    @Test func aStateThatFailsToEncodeIsFollowedByAWholeOne() throws {
        let sink = MemorySink()
        let store = Store(
            initialState: Fragile(items: Self.inventory(30).items), name: "Fragile",
            recorder: try TraceRecorder(sink: sink, patches: .automatic(), onError: { _ in }))
        store.send("count") { $0.items[0].quantity += 1 }
        store.send("break") { $0.broken = true }
        store.send("mend") { $0.broken = false }
        store.send("count") { $0.items[1].quantity += 1 }
        let rebuilt = try RebuiltStates(sink.data)
        #expect(rebuilt.events.map { $0.patch != nil } == [false, true, false, false, true])
        #expect(rebuilt.events[2].state == "null")
        #expect(TraceValidator().validate(bytes: sink.data).problems.isEmpty)
    }

    /// Each file of a rolling version 2 trace is version 2 and starts with the whole states of
    /// the live stores, even when their last events carried patches: each validates alone, and
    /// its states, rebuilt, are those of the store.
    @Test func eachFileOfARollingTraceStartsWithWholeStates() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("big.jsonl")
        let recorder = try TraceRecorder(path: path, maximumBytes: 16_384, patches: .automatic())
        let store = Store(initialState: Self.inventory(60), name: "Inventory", recorder: recorder)
        let other = Store(initialState: Self.inventory(70), name: "Other", recorder: recorder)
        let fresh = StateEncoder()
        var expected: [String: String] = [:]
        for step in 0..<400 {
            store.send("count") { $0.items[step % 60].quantity += 1 }
            if step % 3 == 0 { other.send("flag") { $0.items[step % 70].flagged.toggle() } }
        }
        expected["Inventory"] = try fresh.encodeToString(store.state)
        expected["Other"] = try fresh.encodeToString(other.state)
        var files = [path]
        while FileManager.default.fileExists(atPath: folder.path("big-\(files.count + 1).jsonl")) {
            files.append(folder.path("big-\(files.count + 1).jsonl"))
        }
        #expect(files.count > 3)
        var last: [String: String] = [:]
        for file in files {
            let bytes = Array(try #require(FileManager.default.contents(atPath: file)))
            let rebuilt = try RebuiltStates(bytes)
            #expect(rebuilt.version == 2)
            #expect(rebuilt.events.prefix(2).allSatisfy { $0.type == "register" && $0.patch == nil } || file == path)
            #expect(rebuilt.patchCount > 0)
            #expect(TraceValidator().validate(bytes: bytes).problems.isEmpty, "\(file)")
            for event in rebuilt.events { last[event.store] = event.state }
        }
        #expect(last == expected)
    }

    /// Stores on several threads share one version 2 recorder: each store's patches apply, in
    /// `seq` order, to its own last state.
    /// In memory, and in a file (the sink an app uses, whose writes are its own).
    @Test(arguments: [false, true]) func threadsShareOneRecorderThatWritesPatches(toFile: Bool) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("patched.jsonl")
        let sink = MemorySink()
        let recorder =
            toFile
            ? try TraceRecorder(path: path, patches: .automatic())
            : try TraceRecorder(sink: sink, patches: .automatic())
        let stores = (0..<4).map {
            Store(initialState: Self.inventory(40 + $0), name: "Store\($0)", recorder: recorder)
        }
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            let store = stores[thread % 4]
            for step in 0..<500 {
                store.send("count") { $0.items[(step * 7 + thread) % $0.items.count].quantity += 1 }
                if step % 50 == 0 { store.send("grow") { $0.items.append(Self.inventory(1).items[0]) } }
            }
        }
        let data = toFile ? Array(try Data(contentsOf: URL(fileURLWithPath: path))) : sink.data
        let rebuilt = try RebuiltStates(data)
        #expect(rebuilt.events.count == 4 + 8 * 510)
        #expect(rebuilt.patchCount > 8 * 400)
        for store in stores {
            #expect(
                rebuilt.events.last { $0.store == store.name }?.state
                    == (try StateEncoder().encodeToString(store.state)))
        }
        #expect(TraceValidator().validate(bytes: data).problems.isEmpty)
    }

    struct Padded: Codable, Equatable {
        var flag: Bool
        var number: Int
        var text: String
        var small: Int16
    }

    /// Only the bytes of stored members count when elements are compared: the padding after a
    /// `Bool` or an `Int16`, which a copy leaves as it was, does not.
    @Test func theElementMaskLeavesPaddingOut() {
        let padded = Padded(flag: true, number: 7, text: "seven", small: 7)
        let mask = ElementMask.words(of: padded, type: Padded.self, stride: MemoryLayout<Padded>.stride)
        #expect(mask == [0xFF, ~0, ~0, ~0, 0xFFFF])
        #expect(ElementMask.words(of: 7, type: Int.self, stride: 8) == [~0])
        // Nested structs and tuples are read member by member too.
        let nested = Nested(inner: padded, pair: (true, 2))
        #expect(
            ElementMask.words(of: nested, type: Nested.self, stride: MemoryLayout<Nested>.stride)
                == [0xFF, ~0, ~0, ~0, 0xFFFF, 0xFF, ~0])
        // An enum counts whole: which bytes hold its data depends on its case.
        #expect(
            ElementMask.words(of: Padded?.some(padded) as Any, type: Padded?.self, stride: MemoryLayout<Padded?>.stride)
                .allSatisfy { $0 != 0 })
    }

    /// Where the layout read from `Mirror` cannot be trusted, every byte counts, so that no
    /// difference is hidden: a member declared as an existential (its value has another type
    /// and size) and a type with a mirror of its own.
    @Test func theElementMaskCountsWholeWhatItCannotRead() {
        let existential = Existential(flag: true, value: Padded(flag: false, number: 1, text: "", small: 1))
        let stride = MemoryLayout<Existential>.stride
        #expect(
            ElementMask.words(of: existential, type: Existential.self, stride: stride)
                == ElementMask.whole(stride: stride))
        let mirrored = Mirrored(flag: true, number: 3)
        let mirroredStride = MemoryLayout<Mirrored>.stride
        #expect(
            ElementMask.words(of: mirrored, type: Mirrored.self, stride: mirroredStride)
                == ElementMask.whole(stride: mirroredStride))
        #expect(ElementMask.whole(stride: 12) == [~0, 0xFFFF_FFFF])
    }

    struct Nested {
        var inner: Padded
        var pair: (Bool, Int)
    }

    struct Existential {
        var flag: Bool
        var value: Any
    }

    struct Mirrored: CustomReflectable {
        var flag: Bool
        var number: Int
        var customMirror: Mirror { Mirror(self, children: ["number": number]) }
    }
}
