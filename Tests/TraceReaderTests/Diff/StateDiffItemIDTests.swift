import TestSupport
import Testing

@testable import TraceJSON
@testable import TraceQueries

/// Diffs that name items by id (issue 20, item 7): the same change reads the same wherever the
/// item sits.
@Suite struct StateDiffItemIDTests {
    static func diff(_ before: String, _ after: String) throws -> StateDiff {
        StateDiff(from: try JSONParser.parse(before), to: try JSONParser.parse(after))
    }

    static let moving = MovingItemsTrace.states.map { "{\"CartStore\": \($0)}" }

    @Test func aChangedItemIsNamedByItsIDInTheChangesThePathsAndTheTree() throws {
        let diff = try Self.diff(Self.moving[3], Self.moving[4])
        let named = diff.changes(namingItemsByID: true)
        #expect(named.map(\.path.description) == [#"CartStore.lines[id: "MUG"].quantity"#])
        #expect(diff.changes.map(\.path.description) == ["CartStore.lines[1].quantity"])
        var printer = StateDiffPrinter(width: 80)
        printer.namesItemsByID = true
        #expect(printer.paths(diff) == "CartStore.lines[id: \"MUG\"].quantity: 2 → 3\n")
        #expect(printer.text(diff).contains(#"    [id: "MUG"]: {"#))
        #expect(printer.text(diff).contains(#"    [id: "C"]: {"id": "C", "quantity": 5}"#))
        printer.namesItemsByID = false
        #expect(printer.paths(diff) == "CartStore.lines[1].quantity: 2 → 3\n")
    }

    @Test func removedAndAddedItemsAreNamedByID() throws {
        let removed = try Self.diff(Self.moving[1], Self.moving[2]).changes(namingItemsByID: true)
        #expect(removed.map(\.path.description) == [#"CartStore.lines[id: "A"]"#])
        let added = try Self.diff(#"{"l": [{"id": 1}]}"#, #"{"l": [{"id": 7, "x": true}, {"id": 1}]}"#)
        #expect(
            added.changes(namingItemsByID: true) == [
                .added(StatePath([.key("l"), .id(.integer(7))]), try JSONParser.parse(#"{"id": 7, "x": true}"#))
            ])
    }

    @Test(arguments: [
        // An element without an id, a duplicate id, an id that is not a string or an integer.
        (#"{"l": [{"id": 1, "q": 1}, {"q": 2}]}"#, #"{"l": [{"id": 1, "q": 5}, {"q": 2}]}"#, "l[0].q"),
        (#"{"l": [{"id": 1, "q": 1}, {"id": 1}]}"#, #"{"l": [{"id": 1, "q": 5}, {"id": 1}]}"#, "l[0].q"),
        (#"{"l": [{"id": 1.5, "q": 1}]}"#, #"{"l": [{"id": 1.5, "q": 5}]}"#, "l[0].q"),
        (#"{"l": [1, 2]}"#, #"{"l": [1, 3]}"#, "l[1]"),
        // Only one side has ids everywhere.
        (#"{"l": [{"id": 1, "q": 1}]}"#, #"{"l": [{"id": 1, "q": 5}, {"q": 2}]}"#, "l[0].q"),
    ])
    func arraysWithoutDistinctIDsKeepPositions(before: String, after: String, path: String) throws {
        let changes = try Self.diff(before, after).changes(namingItemsByID: true)
        #expect(changes.first?.path.description == path)
    }

    @Test func aStringIDAndAnIntegerIDAreNotTheSame() throws {
        let changes = try Self.diff(
            #"{"l": [{"id": "1", "q": 1}, {"id": 1}]}"#, #"{"l": [{"id": "1", "q": 2}, {"id": 1}]}"#
        )
        .changes(namingItemsByID: true)
        #expect(changes.map(\.path.description) == [#"l[id: "1"].q"#])
    }

    @Test func aLongListOfIntegerIDsIsNamedByID() throws {
        let items = (0..<5000).map { #"{"id": \#($0), "q": 1}"# }
        var changed = items
        changed[2500] = #"{"id": 2500, "q": 2}"#
        changed.insert(#"{"id": -9223372036854775808}"#, at: 7)
        let diff = try Self.diff("[" + items.joined(separator: ",") + "]", "[" + changed.joined(separator: ",") + "]")
        #expect(
            diff.changes(namingItemsByID: true).map(\.path.description) == [
                "[id: -9223372036854775808]", "[id: 2500].q",
            ])
    }

    @Test func anItemWhoseIDChangedIsNamedByPosition() throws {
        let changes = try Self.diff(#"{"l": [{"id": "a", "q": 1}]}"#, #"{"l": [{"id": "b", "q": 1}]}"#)
            .changes(namingItemsByID: true)
        #expect(changes.map(\.path.description) == ["l[0].id"])
    }

    @Test func everyIDPathResolvesInTheStateItComesFrom() throws {
        for (before, after) in zip(Self.moving, Self.moving.dropFirst()) {
            let old = try JSONParser.parse(before)
            let new = try JSONParser.parse(after)
            for change in StateDiff(from: old, to: new).changes(namingItemsByID: true) {
                let state = change.after == nil ? old : new
                #expect(change.path.resolve(in: state) == (change.after ?? change.before), "\(change.path)")
            }
        }
    }
}
