import TraceJSON
import TraceQueries

/// A store whose state went from one enum case to another, read as Swift terms: Swift's
/// `Codable` writes an enum with associated values as an object with one member, named for the
/// case, holding the payload (`{"paying":{"_0":{…}}}`, `{"failed":{"totals":…,"reason":…}}`).
/// The step view shows such a change as `.paying → .failed` with the payload's diff beneath,
/// instead of two JSON blobs, one removed and one added.
struct EnumCaseChange {
    let from: String
    let to: String
    /// The payloads, `{}` for a case without one.
    let fromPayload: JSONValue
    let toPayload: JSONValue

    /// The case change between `before` and `after`; nil unless both are one-member objects
    /// whose member names differ.
    init?(before: JSONValue?, after: JSONValue?) {
        guard let before = before?.objectValue, let after = after?.objectValue, before.count == 1, after.count == 1,
            let from = before.first, let to = after.first, from.key != to.key
        else { return nil }
        self.from = from.key
        self.to = to.key
        fromPayload = from.value
        toPayload = to.value
    }

    /// `Store: .from → .to`, then the payload's diff (or that it is the same, or that there is
    /// none), indented beneath.
    func lines(store: String, printer: StateDiffPrinter, style: Style) -> [String] {
        var lines = ["\(TTY.safe(store)): " + style.bold(".\(TTY.safe(from)) → .\(TTY.safe(to))")]
        let empty = JSONValue.object(JSONObject())
        if fromPayload == empty && toPayload == empty { return lines }
        let diff = StateDiff(from: fromPayload, to: toPayload)
        if diff.isEmpty {
            lines.append(style.dim("  the payload is the same"))
            return lines
        }
        lines.append(style.dim("  payload:"))
        lines += printer.text(diff).split(separator: "\n").map { "  " + $0 }
        return lines
    }
}
