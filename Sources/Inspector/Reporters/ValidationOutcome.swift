import TraceReader

/// What `inspector validate` learnt about one path on its command line: a report, or why the
/// file could not be read at all.
enum ValidationOutcome: Sendable {
    /// The file was read; the report says what is wrong with it, `not-a-trace` included.
    case report(ValidationReport)
    /// The file could not be opened or read (missing, unreadable, a directory without traces).
    case unreadable(ValidationFileError)

    /// The path as given.
    var path: String {
        switch self {
        case .report(let report): report.file
        case .unreadable(let error): error.path
        }
    }

    /// The exit status this file alone calls for: 2 when it could not be read as a trace, 1 when
    /// it has an error (or, with `strict`, a warning), else 0.
    func exitStatus(strict: Bool) -> Int32 {
        switch self {
        case .unreadable: return ExitStatus.unusable
        case .report(let report):
            if report.isFatal { return ExitStatus.unusable }
            return report.passes(strict: strict) ? ExitStatus.success : ExitStatus.problems
        }
    }
}
