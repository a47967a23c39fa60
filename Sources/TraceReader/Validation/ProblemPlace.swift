/// Where a problem is and what kind it is, without its message: what a report keeps of the
/// problems past `TraceValidator.maximumProblems` when `TraceValidator.recordsOmittedPlaces` is
/// set, so that a viewer can mark every problem of a long trace (16 bytes each, where a whole
/// `Problem` with its message takes ten times more).
public struct ProblemPlace: Sendable, Hashable {
    /// The 1-based file line of the problem.
    public var line: Int
    /// What kind of problem it is (its severity is `kind.severity`).
    public var kind: ProblemKind

    /// Creates a place.
    public init(line: Int, kind: ProblemKind) {
        self.line = line
        self.kind = kind
    }
}
