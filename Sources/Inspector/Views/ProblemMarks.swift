import TraceReader

/// The validation problems of a trace as the step view marks them: every problem's line, however
/// many there are, and the whole problem (with its message) for the first `keptMessages`; past
/// those only the line and kind are kept (16 bytes each), so a trace wrong on every line still
/// has every problem marked and reachable with `]` `[` without holding every message.
struct ProblemMarks: Equatable, Sendable, ExpressibleByDictionaryLiteral {
    /// How many problems are kept whole; the others are kept as places.
    static let keptMessages = 10_000

    /// The problems kept whole, by line.
    private var whole: [Int: [Problem]] = [:]
    /// The problems kept as places: their lines (sorted) and kinds.
    private var placeLines: [Int] = []
    private var placeKinds: [ProblemKind] = []
    /// The counts of every problem, kept whole or not: what `inspector validate` says.
    private(set) var errors = 0
    private(set) var warnings = 0
    /// The columns of the widest kind among every problem (`discontinuity`: 13); 0 when there
    /// is none. The step view's list keeps room for a tag of that kind, from the whole trace's
    /// problems, so that no column moves as the list scrolls (`EventLine.forList`).
    private(set) var widestKind = 0

    init() {}

    init(dictionaryLiteral elements: (Int, [Problem])...) {
        for (_, problems) in elements { add(problems, omitted: []) }
    }

    /// The problems of a whole validation report (made with `validator`).
    init(_ report: ValidationReport) {
        for problem in report.problems { whole[problem.line, default: []].append(problem) }
        let places = report.omittedPlaces.sorted { $0.line < $1.line }
        placeLines = places.map(\.line)
        placeKinds = places.map(\.kind)
        errors = report.errors
        warnings = report.warnings
        widestKind = (report.problems.map(\.kind) + placeKinds).map { $0.rawValue.count }.max() ?? 0
    }

    /// The validator whose reports keep what this needs.
    static var validator: TraceValidator {
        var validator = TraceValidator(maximumProblems: keptMessages)
        validator.recordsOmittedPlaces = true
        return validator
    }

    /// Adds the problems of one line, found as the file is read in order.
    mutating func add(_ problems: [Problem], omitted: [ProblemPlace]) {
        for problem in problems {
            whole[problem.line, default: []].append(problem)
            count(problem.kind)
        }
        for place in omitted {
            // Read in order, the lines come sorted; one found later goes in its place.
            let at = placeLines.last.map { $0 <= place.line } ?? true ? placeLines.count : insertionPoint(place.line)
            placeLines.insert(place.line, at: at)
            placeKinds.insert(place.kind, at: at)
            count(place.kind)
        }
    }

    private mutating func count(_ kind: ProblemKind) {
        widestKind = max(widestKind, kind.rawValue.count)
        if kind.severity == .warning { warnings += 1 } else { errors += 1 }
    }

    /// Every problem, kept whole or not.
    var count: Int { errors + warnings }
    var isEmpty: Bool { count == 0 }

    /// The lines that have a problem, in order, each once.
    var lines: [Int] {
        var all = Set(whole.keys)
        all.formUnion(placeLines)
        return all.sorted()
    }

    /// The problems on `line`; nil when it has none. A problem kept as a place has a message
    /// that says how to read its own.
    subscript(line: Int) -> [Problem]? {
        var found = whole[line] ?? []
        var at = insertionPoint(line)
        while at < placeLines.count && placeLines[at] == line {
            found.append(
                Problem(
                    kind: placeKinds[at], line: line,
                    message:
                        "one of the problems past the first \(Self.keptMessages), whose messages the view does not keep; 'inspector validate --max-problems \(count)' prints it"
                ))
            at += 1
        }
        return found.isEmpty ? nil : found
    }

    /// The first index of `placeLines` whose line is `line` or later.
    private func insertionPoint(_ line: Int) -> Int {
        var low = 0
        var high = placeLines.count
        while low < high {
            let middle = (low + high) / 2
            if placeLines[middle] < line { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
