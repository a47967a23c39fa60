import Foundation
import Recorder
import TestSupport
import Testing
import TraceJSON
import TraceReader

/// Dictionaries and sets are written in a stable order, and a dictionary keyed by a
/// `String`-backed enum as an object whose keys are names.
@Suite struct RecordedEncodingTests {
    enum Field: String, Codable, Hashable, Sendable { case name, password, email }

    struct Form: Codable, Equatable, Sendable {
        var values: [Field: String]
        var counts: [Int: Int]
        var tags: Set<String>
        var byName: [String: Int]
    }

    @Test func membersAreSortedByKeyAndElementsByTheirJSON() throws {
        // Build the same values in many insertion orders: the bytes must not change.
        var generator = SeededGenerator(seed: 0x5047)
        var written: Set<String> = []
        for _ in 0..<20 {
            var names = (0..<30).map { "key\($0)" }
            names.shuffle(using: &generator)
            var byName: [String: Int] = [:]
            for (index, name) in names.enumerated() { byName[name] = index % 3 }
            // Same contents whatever the order above.
            byName = byName.mapValues { _ in 1 }
            var tags = Set<String>()
            for name in names { tags.insert(name) }
            var counts: [Int: Int] = [:]
            for value in [100, -5, 7, 20, 3].shuffled(using: &generator) { counts[value] = value * 2 }
            let form = Form(
                values: [.password: "p", .name: "n", .email: "e"], counts: counts, tags: tags, byName: byName)
            written.insert(try StateEncoder(redactedKeys: .none).encodeToString(form))
        }
        #expect(written.count == 1)
        let text = try #require(written.first)
        #expect(
            text.hasPrefix(
                #"{"values":{"email":"e","name":"n","password":"p"},"counts":{"-5":-10,"100":200,"20":40,"3":6,"7":14},"tags":["key0","key1","key10","#
            ))
        let byName = try #require(text.range(of: #""byName":{"#))
        #expect(text[byName.upperBound...].hasPrefix(#""key0":1,"key1":1,"key10":1,"#))
    }

    @Test func anEnumKeyedDictionaryIsAnObjectThatReadsBack() throws {
        let form = Form(values: [.password: "p", .name: "n"], counts: [1: 2], tags: ["a", "b"], byName: ["x": 1])
        let sink = MemorySink()
        let store = Store(
            initialState: form, name: "Form", recorder: try TraceRecorder(sink: sink, redactedKeys: .none))
        store.send("edit") { $0.values[.email] = "e" }
        let trace = try TraceFile(bytes: sink.data)
        #expect(try trace.state(of: "Form", atStep: 1, as: Form.self) == form)
        #expect(try trace.state(of: "Form", atStep: 2, as: Form.self) == store.state)
        #expect(sink.lines[2].contains(#""values":{"email":"e","name":"n","password":"p"}"#))
    }

    struct Point: Codable, Hashable, Sendable {
        var x: Int
        var y: Int
    }

    /// Keys that are not names keep Swift's array of key, value, key, value, in a stable order.
    @Test func otherKeysKeepTheArrayFormSortedByKey() throws {
        let points: [Point: String] = [Point(x: 2, y: 0): "b", Point(x: 1, y: 5): "a", Point(x: 1, y: 2): "c"]
        let text = try StateEncoder().encodeToString(points)
        #expect(text == #"[{"x":1,"y":2},"c",{"x":1,"y":5},"a",{"x":2,"y":0},"b"]"#)
        #expect(try JSONDecoder().decode([Point: String].self, from: Data(text.utf8)) == points)
        #expect(try JSONValueDecoder().decode([Point: String].self, from: Array(text.utf8)) == points)
        let set: Set<Point> = [Point(x: 3, y: 1), Point(x: 1, y: 9), Point(x: 1, y: 10)]
        #expect(try StateEncoder().encodeToString(set) == #"[{"x":1,"y":10},{"x":1,"y":9},{"x":3,"y":1}]"#)
        #expect(try StateEncoder().encodeToString([Point: Int]()) == "[]")
        #expect(try StateEncoder().encodeToString([Field: Int]()) == "{}")
    }

    /// What the docs say an app's own `JSONDecoder` needs for an enum-keyed dictionary: a key
    /// type that is `CodingKeyRepresentable`, which the recorder writes the same way.
    enum Setting: String, Codable, Hashable, CodingKeyRepresentable, Sendable { case volume, theme }

    @Test func jsonDecoderReadsAnEnumKeyedDictionaryWhoseKeyIsCodingKeyRepresentable() throws {
        let settings: [Setting: Int] = [.volume: 3, .theme: 1]
        let text = try StateEncoder().encodeToString(settings)
        #expect(text == #"{"theme":1,"volume":3}"#)
        #expect(try JSONDecoder().decode([Setting: Int].self, from: Data(text.utf8)) == settings)
    }
}
