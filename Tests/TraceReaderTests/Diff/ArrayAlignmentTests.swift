import TestSupport
import Testing

@testable import TraceJSON

@Suite struct ArrayAlignmentTests {
    /// The length of the longest common subsequence, by the textbook quadratic table.
    func lcsLength(_ a: [Int32], _ b: [Int32]) -> Int {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        return table[0][0]
    }

    /// Walks the steps over both sides: `same` must pass over equal elements, and the walk must
    /// end at the end of both. Returns the number of removals plus insertions.
    func edits(_ steps: [ArrayAlignment.Step], _ a: [Int32], _ b: [Int32]) -> Int? {
        var i = 0
        var j = 0
        var edits = 0
        for step in steps {
            switch step {
            case .same(let count):
                guard count > 0, i + count <= a.count, j + count <= b.count, a[i..<(i + count)] == b[j..<(j + count)]
                else { return nil }
                i += count
                j += count
            case .remove(let count):
                guard count > 0 else { return nil }
                i += count
                edits += count
            case .insert(let count):
                guard count > 0 else { return nil }
                j += count
                edits += count
            }
        }
        return i == a.count && j == b.count ? edits : nil
    }

    @Test func findsTheShortestAlignmentOnGeneratedSequences() {
        var random = SeededGenerator(seed: 3)
        for round in 0..<2_000 {
            let alphabet = Int32.random(in: 1...5, using: &random)
            let a = (0..<Int.random(in: 0...30, using: &random)).map { _ in
                Int32.random(in: 0..<alphabet, using: &random)
            }
            let b = (0..<Int.random(in: 0...30, using: &random)).map { _ in
                Int32.random(in: 0..<alphabet, using: &random)
            }
            let steps = ArrayAlignment.align(a, b, maximumEdits: 1_000)
            let shortest = a.count + b.count - 2 * lcsLength(a, b)
            #expect(steps.flatMap { edits($0, a, b) } == shortest, "round \(round): \(a) → \(b)")
        }
    }

    @Test func givesUpPastItsBudget() {
        let a: [Int32] = Array(0..<100)
        let b: [Int32] = Array(100..<200)
        #expect(ArrayAlignment.align(a, b, maximumEdits: 199) == nil)
        #expect(ArrayAlignment.align(a, b, maximumEdits: 200) == [.remove(100), .insert(100)])
    }

    @Test func hashesEqualElementsAlike() throws {
        let old = try DiffTesting.json(#"[{"a": 1, "b": [1.0]}, "x", 1e400, {"b": [1], "a": 1.0}]"#).arrayValue ?? []
        let new = try DiffTesting.json(#"["x", 10e399, "X", {"a": 2}]"#).arrayValue ?? []
        let (oldHashes, newHashes) = (DiffTesting.hashes(old), DiffTesting.hashes(new))
        #expect(oldHashes[0] == oldHashes[3])
        #expect(oldHashes[1] == newHashes[0])
        #expect(oldHashes[2] == newHashes[1])
        #expect(Set(oldHashes + newHashes).count == 5)
        // And the diff aligns them so: "x" and 1e400 stay, the objects are removed and added.
        #expect(StateDiff.changes(from: .array(old), to: .array(new)).count == 4)
    }

    @Test func equivalentValuesHashAlike() {
        for seed in 0..<300 as Range<UInt64> {
            var generator = DiffStateGenerator(seed: seed)
            let value = generator.value(depth: 4)
            let reordered = JSONPatchTests.reordered(value, using: &generator.random)
            #expect(Equivalence.equal(value, reordered))
            #expect(Equivalence.hash(value) == Equivalence.hash(reordered), "seed \(seed)")
        }
    }
}

@Suite struct HunkPairingTests {
    let json = DiffTesting.json

    @Test func pairsTheElementThatSharesTheMost() throws {
        // B was removed and C's quantity changed: C pairs with C′ although B comes first.
        let old = try json(#"[{"sku": "B", "quantity": 1}, {"sku": "C", "quantity": 1}]"#).arrayValue ?? []
        let new = try json(#"[{"sku": "C", "quantity": 2}]"#).arrayValue ?? []
        #expect(DiffTesting.pairing(old, new) == [.remove(old: 0), .pair(old: 1, new: 0)])
        #expect(DiffTesting.pairing(new, old) == [.insert(new: 0), .pair(old: 0, new: 1)])
    }

    @Test func pairsOneWithOneWhateverTheyAre() throws {
        #expect(DiffTesting.pairing([.string("x")], [.object(["a": .null])]) == [.pair(old: 0, new: 0)])
    }

    @Test func doesNotPairObjectsWithNothingEqualOrValuesOfDifferentTypes() throws {
        let old = try json(#"[{"a": 1}, "s"]"#).arrayValue ?? []
        let new = try json(#"[{"a": 2}, 5]"#).arrayValue ?? []
        #expect(
            DiffTesting.pairing(old, new) == [
                .remove(old: 0), .remove(old: 1), .insert(new: 0), .insert(new: 1),
            ])
    }

    @Test func pairsByPositionPastItsBudget() {
        let old = [JSONValue](repeating: .string("a"), count: 100)
        let new = [JSONValue](repeating: .number("1"), count: 50)
        let steps = DiffTesting.pairing(old, new)
        #expect(steps == HunkPairing.byPosition(100, 50))
        #expect(steps.prefix(50) == (0..<50).map { .pair(old: $0, new: $0) }[...])
    }

    @Test func aRemovedItemNextToAChangedOneReadsSoInTheDiff() throws {
        let before = try json(
            #"[{"sku": "A", "n": 1}, {"sku": "B", "n": 1}, {"sku": "C", "n": 1}, {"sku": "D", "n": 1}]"#)
        let after = try json(#"[{"sku": "A", "n": 1}, {"sku": "C", "n": 5}, {"sku": "D", "n": 1}]"#)
        #expect(
            StateDiff.changes(from: before, to: after) == [
                .removed(try StatePath(parsing: "[1]"), try json(#"{"sku": "B", "n": 1}"#)),
                .changed(try StatePath(parsing: "[1].n"), from: .number("1"), to: .number("5")),
            ])
    }
}
