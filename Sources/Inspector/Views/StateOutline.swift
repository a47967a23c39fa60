import TraceJSON

/// The app state as the state pane shows it: pretty-printed JSON, as `inspector show` prints it,
/// with every object or array deeper than `levels` folded into one line (`"next": {…} 3 members`,
/// `"lines": […] 12 items`), so that a deep state fits on a screen or two. A change is never
/// folded away: under a folded part that holds a value of `changed`, a line per such value gives
/// its path from there and its value now (`  ↳ next.next.note: "new"`, `(removed)` when gone).
struct StateOutline {
    /// How many levels are open: the stores are level 1; an object or array at a deeper level
    /// is folded.
    var levels: Int
    /// The paths (from the app state, store first) the current step changed.
    var changed: [StatePath]

    /// At most this many changed values are listed under one folded part; the rest are counted.
    static let changesListed = 20

    /// The lines of `state`, as `JSONPrinter.pretty(state, indent: 2)` gives them where nothing
    /// is folded. Strings are escaped for a terminal.
    func lines(_ state: JSONObject) -> [String] {
        var lines: [String] = []
        let root = JSONValue.object(state)
        write(root, name: nil, path: StatePath(), depth: 0, comma: false, root: root, into: &lines)
        return lines
    }

    private func write(
        _ value: JSONValue, name: String?, path: StatePath, depth: Int, comma: Bool, root: JSONValue,
        into lines: inout [String]
    ) {
        let indent = String(repeating: "  ", count: depth)
        let lead = indent + (name.map { JSONPrinter.quoted($0, terminalSafe: true) + ": " } ?? "")
        let end = comma ? "," : ""
        switch value {
        case .array(let elements) where !elements.isEmpty:
            let children = elements.enumerated().map {
                (name: String?.none, step: Step.index($0.offset), value: $0.element)
            }
            let container = Container(open: "[", close: "]", folded: "[…] ", one: "1 item", many: "items")
            write(container, children, lead: lead, end: end, path: path, depth: depth, root: root, into: &lines)
        case .object(let object) where !object.isEmpty:
            let children = Self.shownMembers(of: object).map { position in
                (
                    name: String?.some(object[position].key), step: Step.key(object[position].key),
                    value: object[position].value
                )
            }
            let container = Container(open: "{", close: "}", folded: "{…} ", one: "1 member", many: "members")
            write(container, children, lead: lead, end: end, path: path, depth: depth, root: root, into: &lines)
        default:
            lines.append(lead + JSONPrinter.compact(value, terminalSafe: true) + end)
        }
    }

    private typealias Step = StatePath.Component

    /// How an object or an array is written: its brackets, and its folded line's words.
    private struct Container {
        let open: String
        let close: String
        let folded: String
        let one: String
        let many: String
    }

    /// An object or array at `path` with these `children`: open, or folded when deeper than the
    /// open levels and not itself a changed value.
    private func write(
        _ container: Container, _ children: [(name: String?, step: Step, value: JSONValue)], lead: String,
        end: String, path: StatePath, depth: Int, root: JSONValue, into lines: inout [String]
    ) {
        let indent = String(repeating: "  ", count: depth)
        if depth > levels && !changed.contains(path) {
            let count = children.count == 1 ? container.one : "\(children.count) \(container.many)"
            lines.append(lead + container.folded + count + end)
            listChanges(under: path, indent: indent, root: root, into: &lines)
            return
        }
        lines.append(lead + container.open)
        for (offset, child) in children.enumerated() {
            write(
                child.value, name: child.name, path: path.appending(child.step), depth: depth + 1,
                comma: offset < children.count - 1, root: root, into: &lines)
        }
        lines.append(indent + container.close + end)
    }

    /// Under a folded part at `path`: a line per changed value inside it.
    private func listChanges(under path: StatePath, indent: String, root: JSONValue, into lines: inout [String]) {
        let prefix = path.components
        let inside = changed.filter {
            $0.components.count > prefix.count && Array($0.components.prefix(prefix.count)) == prefix
        }
        for change in inside.prefix(Self.changesListed) {
            let now = change.resolve(in: root).map { JSONPrinter.compact($0, terminalSafe: true) } ?? "(removed)"
            lines.append(indent + "  ↳ \(Self.shortened(Array(change.components.dropFirst(prefix.count)))): \(now)")
        }
        if inside.count > Self.changesListed {
            lines.append(indent + "  ↳ … \(inside.count - Self.changesListed) more changed values")
        }
    }

    /// A path from a folded part to a value in it, its middle left out when it is more than 5
    /// levels long, so that the value stays near the left edge: `next.next.…52 levels….next.note`.
    static func shortened(_ components: [StatePath.Component]) -> String {
        guard components.count > 5 else { return StatePath(components).description }
        let tail = StatePath(Array(components.suffix(2))).description
        let joint = tail.hasPrefix("[") ? "" : "."
        return StatePath(Array(components.prefix(2))).description + ".…\(components.count - 4) levels…" + joint + tail
    }

    /// The positions of the members printed: where a name repeats, only its last member (the
    /// last member wins, as `JSONPrinter` prints it; names compared by their UTF-8 bytes).
    private static func shownMembers(of object: JSONObject) -> [Int] {
        guard Set(object.keys.map { Array($0.utf8) }).count != object.count else { return Array(object.indices) }
        var last: [[UInt8]: Int] = [:]
        for (position, key) in object.keys.enumerated() { last[Array(key.utf8)] = position }
        return object.indices.filter { last[Array(object.keys[$0].utf8)] == $0 }
    }
}
