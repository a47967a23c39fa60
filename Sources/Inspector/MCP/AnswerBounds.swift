import TraceJSON

/// The size limit of every MCP answer, and how a value too large for it is folded.
///
/// A tool's structured result is at most `answerBytes` of compact JSON (the text content
/// repeats it, so a whole response stays under about twice that). A list is paged: it holds
/// what fits, and `nextOffset` says where the next page starts. A value is folded: its deeper
/// containers, then its longer arrays, are replaced by `{"folded":"object","members":N,
/// "bytes":B}` or `{"folded":"array","items":N,"bytes":B}` until it fits, and the state tool adds
/// the paths to ask for next. Strings are never cut: folding removes whole values, so what is
/// shown is exactly what the trace holds (a redacted `"<redacted>"` stays as written).
enum AnswerBounds {
    /// The most bytes of compact JSON in one tool result: 32 KiB, about 8,000 tokens.
    static let answerBytes = 32 << 10

    /// The compact size of `value` in bytes, as the server writes it.
    static func size(_ value: JSONValue) -> Int {
        JSONPrinter.compact(value, terminalSafe: true).utf8.count
    }

    /// `value` itself when its compact JSON is at most `budget` bytes; otherwise folded until it
    /// fits (at worst to one `folded` summary of the whole), and whether it was folded.
    static func fold(_ value: JSONValue, budget: Int) -> (value: JSONValue, folded: Bool) {
        if size(value) <= budget { return (value, false) }
        // From generous to strict: how deep containers are kept, and how many items of an array.
        let steps: [(depth: Int, items: Int)] = [
            (12, 200), (8, 100), (6, 50), (5, 20), (4, 10), (3, 5), (2, 3), (1, 3), (1, 1),
        ]
        for (depth, items) in steps {
            let folded = fold(value, depth: depth, items: items)
            if size(folded) <= budget { return (folded, true) }
        }
        return (summary(of: value), true)
    }

    /// `value` with containers below `depth` summarized and arrays cut to `items` items (the
    /// rest counted in a last `{"folded":"more","items":N}`); an object keeps all its members.
    static func fold(_ value: JSONValue, depth: Int, items: Int) -> JSONValue {
        switch value {
        case .array(let elements):
            guard depth > 0 else { return summary(of: value) }
            var kept = elements.prefix(items).map { fold($0, depth: depth - 1, items: items) }
            if elements.count > items {
                kept.append(.object(["folded": .string("more"), "items": int(elements.count - items)]))
            }
            return .array(kept)
        case .object(let object):
            guard depth > 0 else { return summary(of: value) }
            return .object(JSONObject(object.map { ($0.key, fold($0.value, depth: depth - 1, items: items)) }))
        default:
            return value
        }
    }

    /// `{"folded":"object","members":N,"bytes":B}` for a container, `{"folded":"string",
    /// "bytes":B}` for a long string, the value itself otherwise.
    static func summary(of value: JSONValue) -> JSONValue {
        switch value {
        case .array(let elements):
            return .object(["folded": .string("array"), "items": int(elements.count), "bytes": int(size(value))])
        case .object(let object):
            return .object(["folded": .string("object"), "members": int(object.count), "bytes": int(size(value))])
        case .string:
            return .object(["folded": .string("string"), "bytes": int(size(value))])
        default:
            return value
        }
    }

    /// An integer as a JSON number.
    static func int(_ value: Int) -> JSONValue { .number(String(value)) }
}

/// A page of a list being built: items are added while they fit in the answer's budget (and
/// the page's `limit`); the first that does not ends the page, and `nextOffset` is its offset.
struct AnswerPage {
    /// The items of the page.
    private(set) var items: [JSONValue] = []
    /// The offset of the first item not on the page, when there are more.
    private(set) var nextOffset: Int?
    private var used: Int
    private let budget: Int
    private let limit: Int
    private let offset: Int

    /// A page of at most `limit` items from `offset`, in `budget` bytes less `reserve` (what the
    /// rest of the answer takes).
    init(offset: Int, limit: Int, reserve: Int = 512, budget: Int = AnswerBounds.answerBytes) {
        self.offset = offset
        self.limit = limit
        self.budget = budget - reserve
        self.used = 2
    }

    /// Whether the page is full: the caller stops and sets `nextOffset` with `more(at:)`.
    var isFull: Bool { nextOffset != nil || items.count >= limit }

    /// Adds `item` (folded to at most a quarter of the budget) at offset `position`, or ends the
    /// page there when it does not fit; returns whether it was added.
    @discardableResult
    mutating func add(_ item: JSONValue, at position: Int) -> Bool {
        guard nextOffset == nil else { return false }
        guard items.count < limit else {
            nextOffset = position
            return false
        }
        let (folded, _) = AnswerBounds.fold(item, budget: budget / 4)
        let size = AnswerBounds.size(folded) + 1
        guard used + size <= budget || items.isEmpty else {
            nextOffset = position
            return false
        }
        used += size
        items.append(folded)
        return true
    }

    /// Marks that more items follow from `position` (the list went on past the page).
    mutating func more(at position: Int) {
        if nextOffset == nil { nextOffset = position }
    }

    /// The page's members: `items` under `key`, `offset`, and `nextOffset` when there is more.
    func members(_ key: String) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [(key, .array(items)), ("offset", AnswerBounds.int(offset))]
        if let nextOffset { members.append(("nextOffset", AnswerBounds.int(nextOffset))) }
        return members
    }
}
