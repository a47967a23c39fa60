import TestSupport
import Testing

@testable import TraceJSON
@testable import TraceQueries
@testable import TraceReader

/// `ScalarDifference`, the shortcut `ValueHistory` and `ValueChange` take for scalars, gives
/// the diff's answer whenever it gives one: the same values are the same data (`1.0` ≍ `1`,
/// `"\u0041"` ≍ `"A"`), different spellings of different values differ.
@Suite struct ScalarDifferenceTests {
    static let spellings = [
        "1", "1.0", "10e-1", "1E0", "2", "2.5", "2.50", "25e-1", "-0", "0", "0.0", "-0.5", "-0.50", "1.99", "199",
        "12345678901234567890", "12345678901234567891", #""A""#, #""\u0041""#, #""B""#, #""a\nb""#, #""a\u000ab""#,
        #""é""#, #""\u00e9""#, #""e\u0301""#, #""\ud800""#, #""\uD800""#, #""""#, "true", "false", "null", "{}",
        "[]", "[1]", "[1.0]", #"{"a":1}"#, #"{"a":1.0}"#,
    ]

    /// The diff's answer for the values written `old` and `new`.
    static func differs(_ old: String, _ new: String) throws -> Bool {
        try !JSONText(validating: Array(old.utf8)).isSameData(as: JSONText(validating: Array(new.utf8)))
    }

    @Test func theBytesShortcutAgreesWithTheDiff() throws {
        var decided = 0
        for old in Self.spellings {
            for new in Self.spellings {
                guard let differ = ScalarDifference.differ(Array(old.utf8), Array(new.utf8)) else { continue }
                decided += 1
                #expect(try differ == Self.differs(old, new), "\(old) vs \(new)")
            }
        }
        // Most pairs are settled by their spelling (kinds differ, plain numbers, plain strings).
        #expect(decided > Self.spellings.count * Self.spellings.count / 2)
        #expect(ScalarDifference.differ(Array("1.99".utf8), Array("2.99".utf8)) == true)
        #expect(ScalarDifference.differ(Array("1.0".utf8), Array("1".utf8)) == nil)
        #expect(ScalarDifference.differ(Array(#""\u0041""#.utf8), Array(#""A""#.utf8)) == nil)
    }

    @Test func theValuesShortcutAgreesWithTheDiff() throws {
        var decided = 0
        for old in Self.spellings {
            for new in Self.spellings {
                let before = try JSONParser.parse(Array(old.utf8))
                let after = try JSONParser.parse(Array(new.utf8))
                let diff = StateDiff(from: before, to: after).changes(namingItemsByID: true)
                if let differ = ScalarDifference.differ(before, after) {
                    decided += 1
                    #expect(differ == !diff.isEmpty, "\(old) vs \(new)")
                }
                // What `ValueChange` lists, with or without the shortcut, is what the diff lists.
                let path = try StatePath(parsing: "CartStore.total")
                let change = ValueChange(
                    path: path, step: 1, event: TraceEvent(index: 0, line: 2, seq: 1, type: "register"),
                    before: before, after: after)
                #expect(
                    change.changes
                        == diff.map { change in
                            let full = StatePath(path.components + change.path.components)
                            switch change {
                            case .added(_, let value): return .added(full, value)
                            case .removed(_, let value): return .removed(full, value)
                            case .changed(_, let from, let to): return .changed(full, from: from, to: to)
                            }
                        }, "\(old) vs \(new)")
            }
        }
        #expect(decided > Self.spellings.count * Self.spellings.count / 2)
    }
}
