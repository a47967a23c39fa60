import Testing

@testable import SampleApp

@Suite struct UndoHistoryTests {
    @Test func givesBackValuesLastFirst() {
        var history = UndoHistory<Int>()
        #expect(!history.canUndo)
        history.record(1)
        history.record(2)
        #expect(history.popLast() == 2)
        #expect(history.popLast() == 1)
        #expect(history.popLast() == nil)
    }

    @Test func forgetsTheOldestBeyondItsLimit() {
        var history = UndoHistory<Int>(limit: 3)
        for value in 1...5 { history.record(value) }
        #expect([history.popLast(), history.popLast(), history.popLast(), history.popLast()] == [5, 4, 3, nil])
    }
}
