import TestSupport
import Testing

@testable import TraceJSON
@testable import TraceQueries

@Suite struct StateDiffTests {
    let json = DiffTesting.json

    /// `{"CartStore": {"lines": [{"id": 0}, … {"id": count - 1}], "total": 5}}` with `edit`
    /// applied to the lines.
    func cart(_ count: Int, _ edit: (inout [JSONValue]) -> Void = { _ in }) -> JSONValue {
        var lines: [JSONValue] = (0..<count).map { .object(["id": .number(String($0))]) }
        edit(&lines)
        return .object(["CartStore": .object(["lines": .array(lines), "total": .number("5")])])
    }

    func path(_ text: String) throws -> StatePath {
        try StatePath(parsing: text)
    }

    @Test func oneInsertionIntoAHundredIsOneChange() throws {
        let item = JSONValue.object(["id": .number("1000")])
        let changes = StateDiff.changes(from: cart(100), to: cart(100) { $0.insert(item, at: 50) })
        #expect(changes == [.added(try path("CartStore.lines[50]"), item)])
    }

    @Test func oneRemovalFromAHundredIsOneChange() throws {
        let changes = StateDiff.changes(from: cart(100), to: cart(100) { $0.remove(at: 0) })
        #expect(changes == [.removed(try path("CartStore.lines[0]"), .object(["id": .number("0")]))])
    }

    @Test func aChangedFieldOfOneElementIsThatFieldsChange() throws {
        let changes = StateDiff.changes(from: cart(100), to: cart(100) { $0[42] = .object(["id": .string("x")]) })
        #expect(changes == [.changed(try path("CartStore.lines[42].id"), from: .number("42"), to: .string("x"))])
    }

    @Test func scatteredEditsInTenThousandAreAlignedOneByOne() throws {
        let after = cart(10_000) { lines in
            lines.remove(at: 9_000)
            lines.insert(.string("b"), at: 5_000)
            lines.remove(at: 2_000)
            lines.insert(.string("a"), at: 10)
        }
        let changes = StateDiff.changes(from: cart(10_000), to: after)
        #expect(
            changes == [
                .added(try path("CartStore.lines[10]"), .string("a")),
                .removed(try path("CartStore.lines[2000]"), .object(["id": .number("2000")])),
                .added(try path("CartStore.lines[5000]"), .string("b")),
                .removed(try path("CartStore.lines[9000]"), .object(["id": .number("9000")])),
            ])
    }

    @Test func nestedObjectsReportTheDeepestPath() throws {
        let before = try json(
            #"{"Settings": {"profile": {"name": "Ann", "address": {"city": "Oslo", "zip": "0150"}}}}"#)
        let after = try json(
            #"{"Settings": {"profile": {"name": "Ann", "address": {"city": "Bergen", "zip": "0150", "floor": 2}}}}"#)
        #expect(
            StateDiff.changes(from: before, to: after) == [
                .changed(try path("Settings.profile.address.city"), from: .string("Oslo"), to: .string("Bergen")),
                .added(try path("Settings.profile.address.floor"), .number("2")),
            ])
    }

    @Test func reorderedMembersAreNoChange() throws {
        let before = try json(#"{"a": 1, "b": {"x": [1, 2], "y": null}, "c": "s"}"#)
        let after = try json(#"{"c": "s", "b": {"y": null, "x": [1, 2]}, "a": 1}"#)
        #expect(StateDiff(from: before, to: after).isEmpty)
        #expect(JSONPatch.make(from: before, to: after) == .array([]))
    }

    @Test(arguments: [
        ("1", "1.0"), ("0", "-0"), ("1e400", "10e399"), ("100", "1E+2"), ("0.5", "5e-1"), ("-0.0", "0e7"),
    ])
    func numbersWithTheSameValueAreNoChange(left: String, right: String) {
        #expect(StateDiff(from: .number(left), to: .number(right)).isEmpty)
    }

    @Test(arguments: [
        ("1e400", "1e401"), ("12345678901234567890", "12345678901234567891"), ("0.1", "0.10000000000000001"),
        ("1", "-1"),
    ])
    func numbersWithDifferentValuesAreAChange(left: String, right: String) {
        #expect(
            StateDiff.changes(from: .number(left), to: .number(right)) == [
                .changed(StatePath(), from: .number(left), to: .number(right))
            ])
    }

    @Test func anEnumCaseSwitchIsARemovalAndAnAddition() throws {
        let before = try json(#"{"CatalogStore": {"loading": {}}}"#)
        let after = try json(#"{"CatalogStore": {"loaded": {"_0": ["a", "b"]}}}"#)
        #expect(
            StateDiff.changes(from: before, to: after) == [
                .removed(try path("CatalogStore.loading"), .object([:])),
                .added(try path("CatalogStore.loaded"), try json(#"{"_0": ["a", "b"]}"#)),
            ])
    }

    @Test func stringsAreComparedByTheirBytes() throws {
        let precomposed = JSONValue.string("caf\u{E9}")
        let decomposed = JSONValue.string("cafe\u{301}")
        #expect(precomposed == decomposed)  // Swift's canonical equivalence
        #expect(
            StateDiff.changes(from: precomposed, to: decomposed) == [
                .changed(StatePath(), from: precomposed, to: decomposed)
            ])
        #expect(StateDiff(from: .string("日本語 👩‍👩‍👧"), to: .string("日本語 👩‍👩‍👧")).isEmpty)
    }

    @Test func memberNamesAreMatchedByTheirBytes() throws {
        let before = JSONValue.object(["caf\u{E9}": .number("1"), "K": .number("2")])
        let after = JSONValue.object(["cafe\u{301}": .number("1"), "\u{212A}": .number("2")])  // Kelvin sign
        let changes = StateDiff.changes(from: before, to: after)
        #expect(changes.count == 4)
        #expect(Set(changes.map { $0.path.jsonPointer }) == ["/caf\u{E9}", "/K", "/cafe\u{301}", "/\u{212A}"])
        #expect(try JSONPatch.apply(JSONPatch.make(from: before, to: after), to: before) == after)
    }

    @Test func emptyContainers() throws {
        #expect(
            StateDiff.changes(from: try json("{}"), to: try json(#"{"a": 1}"#)) == [.added(try path("a"), .number("1"))]
        )
        #expect(
            StateDiff.changes(from: try json("[]"), to: try json("[1, 2]")) == [
                .added(try path("[0]"), .number("1")), .added(try path("[1]"), .number("2")),
            ])
        #expect(
            StateDiff.changes(from: try json("[[]]"), to: try json("[]")) == [.removed(try path("[0]"), .array([]))])
        #expect(StateDiff(from: try json("{}"), to: try json("{}")).isEmpty)
        #expect(
            StateDiff.changes(from: try json("{}"), to: try json("[]")) == [
                .changed(StatePath(), from: .object([:]), to: .array([]))
            ])
    }

    @Test(arguments: [("1", #""1""#), ("null", "false"), ("[1]", #"{"0": 1}"#), (#"{"a": 1}"#, "1")])
    func aTopLevelTypeChangeIsOneChangeOfTheWholeValue(left: String, right: String) throws {
        let before = try json(left)
        let after = try json(right)
        #expect(StateDiff.changes(from: before, to: after) == [.changed(StatePath(), from: before, to: after)])
    }

    @Test func appStatePathsStartWithTheStoreName() throws {
        let before: JSONObject = ["CatalogStore": try json(#"{"idle": {}}"#), "CartStore": try json(#"{"lines": []}"#)]
        let after: JSONObject = [
            "CatalogStore": try json(#"{"idle": {}}"#), "CartStore": try json(#"{"lines": [{"sku": "A"}]}"#),
            "UserStore": .null,
        ]
        #expect(
            StateDiff.changes(from: before, to: after) == [
                .added(try path("CartStore.lines[0]"), try json(#"{"sku": "A"}"#)),
                .added(try path("UserStore"), .null),
            ])
    }

    @Test func theLastOfDuplicateMembersCounts() throws {
        let before = try json(#"{"a": 1, "a": 2}"#)
        #expect(StateDiff(from: before, to: try json(#"{"a": 2}"#)).isEmpty)
        #expect(
            StateDiff.changes(from: before, to: try json(#"{"a": 1}"#)) == [
                .changed(try path("a"), from: .number("2"), to: .number("1"))
            ])
    }

    @Test func removedMembersComeAfterTheMemberThatPrecededThem() throws {
        let before = try json(#"{"a": 1, "b": 2, "c": 3, "d": 4}"#)
        let after = try json(#"{"d": 4, "a": 1, "e": 5}"#)
        #expect(StateDiff.changes(from: before, to: after).map(\.path.description) == ["b", "c", "e"])
    }

    @Test func changeAccessorsGiveTheValuesOnEachSide() {
        let added = StateChange.added(StatePath(), .number("1"))
        let removed = StateChange.removed(StatePath(), .number("2"))
        let changed = StateChange.changed(StatePath(), from: .number("3"), to: .number("4"))
        #expect(added.before == nil && added.after == .number("1"))
        #expect(removed.before == .number("2") && removed.after == nil)
        #expect(changed.before == .number("3") && changed.after == .number("4"))
    }

    @Test func aShuffledListBeyondTheAlignmentBudgetIsStillACorrectDiff() throws {
        var random = SeededGenerator(seed: 11)
        let before = JSONValue.array((0..<3_000).map { .number(String($0)) })
        let after = JSONValue.array((0..<3_000).map { JSONValue.number(String($0)) }.shuffled(using: &random))
        let diff = StateDiff(from: before, to: after)
        #expect(!diff.isEmpty)
        #expect(DiffTesting.applying(diff.changes, to: before).map { Equivalence.equal($0, after) } == true)
        #expect(try Equivalence.equal(JSONPatch.apply(JSONPatch.make(diff), to: before), after))
    }

    @Test func theChangeListSaysEverythingOnGeneratedPairs() {
        for seed in 0..<400 as Range<UInt64> {
            var generator = DiffStateGenerator(seed: seed)
            let (before, after) = generator.pair()
            let changes = StateDiff.changes(from: before, to: after)
            let rebuilt = DiffTesting.applying(changes, to: before)
            #expect(rebuilt.map { Equivalence.equal($0, after) } == true, "seed \(seed)")
            #expect(changes.isEmpty == Equivalence.equal(before, after), "seed \(seed)")
        }
    }
}

@Suite struct DeepStateTests {
    /// The deepest state the parser accepts (1024 levels), changed at the bottom.
    @Test func handlesTheDeepestStateTheParserAccepts() throws {
        let depth = JSONParser.maximumDepth
        let before = try JSONParser.parse(
            String(repeating: #"{"a":["#, count: depth / 2) + "1" + String(repeating: "]}", count: depth / 2))
        let after = try JSONParser.parse(
            String(repeating: #"{"a":["#, count: depth / 2) + "2" + String(repeating: "]}", count: depth / 2))
        let diff = StateDiff(from: before, to: after)
        let changes = diff.changes
        #expect(changes.count == 1)
        #expect(changes.first?.path.components.count == depth)
        #expect(try StatePath(parsing: changes.first?.path.description ?? "").resolve(in: after) == .number("2"))
        // The top object's members print without braces; each of the 1023 containers below
        // opens and closes on a line of its own; then the `-` and `+` lines.
        #expect(StateDiffPrinter().text(diff).split(separator: "\n").count == 2 * (depth - 1) + 2)
        #expect(try JSONPatch.apply(JSONPatch.make(diff), to: before) == after)
    }
}
