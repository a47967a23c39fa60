import TraceJSON

/// What validating one trace found (shared/TRACE_FORMAT.md, "The machine-readable report").
public struct ValidationReport: Sendable, Hashable {
    /// The trace's path (or the name given for bytes in memory).
    public var file: String
    /// The number of well-formed events (every line after the header that is an event object
    /// with its required keys, whatever else is wrong with it).
    public var events: Int
    /// The number of errors, a fatal problem included (a trace that cannot be read is not a pass).
    public var errors: Int
    /// The number of warnings.
    public var warnings: Int
    /// The problems in line order; at most `TraceValidator.maximumProblems` of them, see `omitted`.
    public var problems: [Problem]
    /// The number of problems counted in `errors` and `warnings` but left out of `problems`
    /// because there were more than `TraceValidator.maximumProblems`.
    public var omitted: Int
    /// The line and kind of each omitted problem, in the order they were found (a problem found
    /// at the end, such as `unresolved`, comes last); empty unless the validator's
    /// `recordsOmittedPlaces` is set.
    public var omittedPlaces: [ProblemPlace] = []

    /// Creates a report.
    public init(
        file: String, events: Int = 0, errors: Int = 0, warnings: Int = 0, problems: [Problem] = [], omitted: Int = 0
    ) {
        self.file = file
        self.events = events
        self.errors = errors
        self.warnings = warnings
        self.problems = problems
        self.omitted = omitted
    }

    /// Whether the file could not be read as a trace (`not-a-trace`).
    public var isFatal: Bool {
        problems.contains { $0.severity == .fatal }
    }

    /// Whether the trace passes: no error, and with `strict` no warning either.
    public func passes(strict: Bool = false) -> Bool {
        errors == 0 && (!strict || warnings == 0)
    }
}
