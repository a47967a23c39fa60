import TimeTravel

extension ReplayTable {
    /// Replays the trace's `restore` events with `restorer`: each one sets its store to the state
    /// the recording restored, as time travel did then (observers and subscribers told, the
    /// actions they send dropped), and records a `restore` event that the comparison checks.
    ///
    /// Here, in TraceQueries, which depends on TimeTravel: restoring is TimeTravel's, and
    /// TimeTravel, which apps link in debug builds, links the trace reader but not the queries;
    /// ``ReplayTable/onRestore(_:)`` is the hook it fills.
    /// - Parameter redactedValues: what to do with values the trace holds as `"<redacted>"`.
    public mutating func restoring(with restorer: Restorer, redactedValues: RedactedValuePolicy = .keepLive) {
        onRestore { restore in
            try restorer.restore(
                from: restore.trace, atStep: restore.step, stores: [restore.store], redactedValues: redactedValues)
        }
    }
}
