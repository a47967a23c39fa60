/// Renders a `ValueDiff` as the folded tree `StateDiffPrinter.text(_:)` prints.
struct TreeRenderer {
    let width: Int
    let terminalSafe: Bool
    let painter: ANSIPainter
    private(set) var lines: [String] = []

    init(width: Int, terminalSafe: Bool, colors: Bool) {
        self.width = width
        self.terminalSafe = terminalSafe
        painter = ANSIPainter(enabled: colors)
    }

    private enum Mark {
        case context, fold, removed, added
    }

    /// The whole diff; an object at the top is shown by its members, without braces.
    mutating func renderRoot(_ diff: ValueDiff) {
        if case .object(let entries) = diff {
            renderMembers(entries, depth: 0)
        } else {
            render(diff, oldLabel: "", newLabel: "", depth: 0)
        }
    }

    private mutating func emit(_ mark: Mark, _ depth: Int, _ content: String) {
        let indent = String(repeating: "  ", count: depth)
        switch mark {
        case .context: lines.append("  " + indent + content)
        case .fold: lines.append("  " + indent + painter.dim(content))
        case .removed: lines.append(painter.red("- " + indent + content))
        case .added: lines.append(painter.green("+ " + indent + content))
        }
    }

    /// Room left on a line at `depth` after the marker and the indentation.
    private func room(_ depth: Int) -> Int {
        max(20, width - 2 - 2 * depth)
    }

    private mutating func render(_ diff: ValueDiff, oldLabel: String, newLabel: String, depth: Int) {
        switch diff {
        case .replaced(let old, let new):
            renderValue(old, label: oldLabel, .removed, depth)
            renderValue(new, label: newLabel, .added, depth)
        case .object(let entries):
            emit(.context, depth, newLabel + "{")
            renderMembers(entries, depth: depth + 1)
            emit(.context, depth, "}")
        case .array(let arrays):
            emit(.context, depth, newLabel + "[")
            renderElements(arrays, depth: depth + 1)
            emit(.context, depth, "]")
        }
    }

    private mutating func renderMembers(_ entries: [ObjectEntry], depth: Int) {
        var unchanged: [(label: String, value: JSONValue)] = []
        for entry in entries {
            if case .unchanged(let key, let value) = entry {
                unchanged.append((label(key), value))
                continue
            }
            fold(count: unchanged.count, single: unchanged.first, depth)
            unchanged.removeAll()
            switch entry {
            case .unchanged:
                break
            case .removed(let key, let value):
                renderValue(value, label: label(key), .removed, depth)
            case .added(let key, let value):
                renderValue(value, label: label(key), .added, depth)
            case .changed(let key, let inner):
                render(inner, oldLabel: label(key), newLabel: label(key), depth: depth)
            }
        }
        fold(count: unchanged.count, single: unchanged.first, depth)
    }

    private mutating func renderElements(_ arrays: ArrayDiff, depth: Int) {
        var count = 0
        var single: (label: String, value: JSONValue)? = nil
        for entry in arrays.entries {
            if case .unchanged(_, let new, let run) = entry {
                if count == 0 { single = (label(new), arrays.new[new]) }
                count += run
                continue
            }
            fold(count: count, single: single, depth)
            count = 0
            switch entry {
            case .unchanged:
                break
            case .removed(let old):
                renderValue(arrays.old[old], label: label(old), .removed, depth)
            case .added(let new):
                renderValue(arrays.new[new], label: label(new), .added, depth)
            case .changed(let old, let new, let inner):
                render(inner, oldLabel: label(old), newLabel: label(new), depth: depth)
            }
        }
        fold(count: count, single: single, depth)
    }

    /// Unchanged context: one member or element on one line, more as `… (N unchanged)`.
    private mutating func fold(count: Int, single: (label: String, value: JSONValue)?, _ depth: Int) {
        if count == 1, let single {
            let value = ValueText.line(
                single.value, maxWidth: room(depth) - single.label.count, terminalSafe: terminalSafe)
            emit(.context, depth, single.label + value)
        } else if count > 1 {
            emit(.fold, depth, "… (\(count) unchanged)")
        }
    }

    /// A whole value, on one line when it fits, else opened one member or element a line.
    private mutating func renderValue(_ value: JSONValue, label: String, _ mark: Mark, _ depth: Int) {
        switch value {
        case .object(let object) where !object.isEmpty:
            let rendered = ValueText.render(value, maxWidth: room(depth) - label.count, terminalSafe: terminalSafe)
            guard rendered.isCut else { return emit(mark, depth, label + line(rendered)) }
            emit(mark, depth, label + "{")
            for (key, member) in object {
                renderValue(member, label: self.label(key), mark, depth + 1)
            }
            emit(mark, depth, "}")
        case .array(let elements) where !elements.isEmpty:
            let rendered = ValueText.render(value, maxWidth: room(depth) - label.count, terminalSafe: terminalSafe)
            guard rendered.isCut else { return emit(mark, depth, label + line(rendered)) }
            emit(mark, depth, label + "[")
            for (index, element) in elements.enumerated() {
                renderValue(element, label: self.label(index), mark, depth + 1)
            }
            emit(mark, depth, "]")
        default:
            emit(mark, depth, label + ValueText.line(value, terminalSafe: terminalSafe))
        }
    }

    private func line(_ rendered: ValueText.Rendered) -> String {
        rendered.isNotUnicode ? rendered.text + ValueText.notUnicodeNote : rendered.text
    }

    private func label(_ key: String) -> String {
        let name = StatePath.isPlainName(key) ? key : "[" + JSONPrinter.quoted(key, terminalSafe: true) + "]"
        return name + ": "
    }

    private func label(_ index: Int) -> String {
        "[\(index)]: "
    }
}
