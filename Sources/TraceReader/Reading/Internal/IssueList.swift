import TraceJSON

/// The issues found while indexing, at most `limitPerKind` of each kind, plus one issue per kind
/// saying how many more there were: a file of a million empty lines costs a hundred issues, not
/// a million.
struct IssueList: Sendable {
    static let limitPerKind = 100

    private var kept: [TraceReadIssue] = []
    /// For each kind (by `Kind.allCases` position): how many were found, and the line of the
    /// first one not kept.
    private var found = [Int](repeating: 0, count: TraceReadIssue.Kind.allCases.count)
    private var firstOmitted = [Int?](repeating: nil, count: TraceReadIssue.Kind.allCases.count)

    init() {}

    /// Adds an issue; `message` is only made when the issue is kept.
    mutating func add(line: Int, kind: TraceReadIssue.Kind, _ message: @autoclosure () -> String) {
        let slot = Self.slot(kind)
        found[slot] += 1
        if found[slot] <= Self.limitPerKind {
            kept.append(TraceReadIssue(line: line, kind: kind, message: message()))
        } else if firstOmitted[slot] == nil {
            firstOmitted[slot] = line
        }
    }

    /// Adds the issues of `other`, a list for the lines that follow this list's, moving each
    /// line number by `lineShift`.
    mutating func append(_ other: IssueList, lineShift: Int) {
        for issue in other.kept {
            var moved = issue
            moved.line += lineShift
            let slot = Self.slot(issue.kind)
            found[slot] += 1
            if found[slot] <= Self.limitPerKind {
                kept.append(moved)
            } else if firstOmitted[slot] == nil {
                firstOmitted[slot] = moved.line
            }
        }
        for slot in found.indices {
            let omitted = other.found[slot] - min(other.found[slot], Self.limitPerKind)
            guard omitted > 0 else { continue }
            found[slot] += omitted
            if firstOmitted[slot] == nil, let line = other.firstOmitted[slot] { firstOmitted[slot] = line + lineShift }
        }
    }

    /// Every kept issue and the summaries, in line order.
    func issues() -> [TraceReadIssue] {
        var all = kept
        for (slot, kind) in TraceReadIssue.Kind.allCases.enumerated() {
            guard let line = firstOmitted[slot] else { continue }
            let more = found[slot] - Self.limitPerKind
            all.append(
                TraceReadIssue(
                    line: line, kind: kind,
                    message:
                        "and \(more) more \(more == 1 ? "line" : "lines") like this from here on; only the first \(Self.limitPerKind) are listed"
                ))
        }
        return all.enumerated()
            .sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
            .map(\.element)
    }

    private static func slot(_ kind: TraceReadIssue.Kind) -> Int {
        TraceReadIssue.Kind.allCases.firstIndex(of: kind) ?? 0
    }
}
