import TraceReader

extension TraceFile {
    /// The event at `index` (`0..<eventCount`) with every member but its `state` (and a version 2
    /// `patch`), which are nil:
    /// what `event(at:)` gives, read without building the state. The line is read again and
    /// scanned (the state checked as JSON and skipped), so a line of any size costs about its
    /// own size in memory, where `event(at:)` builds the state's tree (tens of times more). For
    /// commands that list events (`log`, `when`, `why`). Nil where `event(at:)` is nil.
    public func eventWithoutState(at index: Int) -> TraceEvent? {
        guard let lineNumber = line(ofEventAt: index) else { return nil }
        return scanEvent(at: index) { fields, line in
            TraceEvent(fields: fields, in: line, index: index, lineNumber: lineNumber)
        } ?? nil
    }
}
