/// Writes `inspector validate`'s outcomes in one output format. Outcomes come one by one, in the
/// order of the command line; `finish` is called after the last.
protocol ValidationReporter {
    /// Writes (or keeps, for a format that needs them all) one file's outcome.
    mutating func write(_ outcome: ValidationOutcome, console: Console)
    /// Writes what comes after the last file.
    mutating func finish(console: Console)
}

/// The output formats of `inspector validate --format`.
enum ValidationFormat: String, CaseIterable {
    /// One line per problem as compilers write them, and a summary line per file.
    case text
    /// One JSON object per file per line, shaped as shared/TRACE_FORMAT.md says.
    case json
    /// GitHub Actions workflow commands (`::error file=…,line=…::…`).
    case github
    /// One JUnit XML document: a test case per trace, a failure per error.
    case junit

    /// A reporter for this format; `sourceRoot` is where the Swift files a trace names are.
    func reporter(strict: Bool, sourceRoot: SourceRoot = SourceRoot()) -> any ValidationReporter {
        switch self {
        case .text: TextReporter(strict: strict, sourceRoot: sourceRoot)
        case .json: JSONReporter(sourceRoot: sourceRoot)
        case .github: GitHubReporter(strict: strict, sourceRoot: sourceRoot)
        case .junit: JUnitReporter(strict: strict, sourceRoot: sourceRoot)
        }
    }
}

/// "1 error", "2 warnings".
func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
