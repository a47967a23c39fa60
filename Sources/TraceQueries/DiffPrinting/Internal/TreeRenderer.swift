internal import ToolSupport
import TraceJSON

/// Renders a `ValueDiff` as the folded tree `StateDiffPrinter.text(_:)` prints, from the two
/// texts: values are printed as they are walked, so an added list of a million items is a
/// million lines written one after the other, never a tree.
struct TreeRenderer {
    let width: Int
    let terminalSafe: Bool
    /// Whether a changed string too long for its line shows the window around its first
    /// difference (`ChangedStringWindow`) rather than whole.
    var windowsChangedStrings = false
    /// Whether elements of arrays whose elements all have distinct ids are labelled by id
    /// (`[id: "MUG"]:`, see `ElementIDs`) rather than by position.
    var namesItemsByID = false
    let painter: ANSIPainter
    let old: JSONTextReader
    let new: JSONTextReader
    private var scratch = JSONTextReader.Scratch()
    private(set) var output: ChunkedText

    init(
        width: Int, terminalSafe: Bool, colors: Bool, old: JSONTextReader, new: JSONTextReader, output: ChunkedText
    ) {
        self.width = width
        self.terminalSafe = terminalSafe
        painter = ANSIPainter(enabled: colors)
        self.old = old
        self.new = new
        self.output = output
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
        output.flush()
    }

    private mutating func emit(_ mark: Mark, _ depth: Int, _ content: String) {
        emit(mark, depth, label: "", content)
    }

    /// A line: the mark, the indentation of `depth`, then `label` and `content`.
    private mutating func emit(_ mark: Mark, _ depth: Int, label: String, _ content: String) {
        if painter.enabled {
            let indent = String(repeating: "  ", count: depth)
            switch mark {
            case .context: output.appendLine("  " + indent + label + content)
            case .fold: output.appendLine("  " + indent + painter.dim(label + content))
            case .removed: output.appendLine(painter.red("- " + indent + label + content))
            case .added: output.appendLine(painter.green("+ " + indent + label + content))
            }
            return
        }
        // Without colours, in place: a diff may print millions of lines.
        switch mark {
        case .context, .fold: output.append("  ")
        case .removed: output.append("- ")
        case .added: output.append("+ ")
        }
        output.appendSpaces(2 * depth)
        output.append(label)
        output.append(content)
        output.endLine()
    }

    /// Room left on a line at `depth` after the marker and the indentation.
    private func room(_ depth: Int) -> Int {
        max(20, width - 2 - 2 * depth)
    }

    private mutating func render(_ diff: ValueDiff, oldLabel: String, newLabel: String, depth: Int) {
        switch diff {
        case .replaced(let before, let after):
            if windowsChangedStrings, old.kind(before) == .string, new.kind(after) == .string {
                let oldText = ValueText.render(before, in: old, maxWidth: nil, terminalSafe: terminalSafe, &scratch)
                let newText = ValueText.render(after, in: new, maxWidth: nil, terminalSafe: terminalSafe, &scratch)
                let room = room(depth) - DisplayWidth.of(newLabel)
                if let window = ChangedStringWindow.fitted(old: oldText.line, new: newText.line, width: room) {
                    emit(.removed, depth, oldLabel + window.old)
                    emit(.added, depth, newLabel + window.new)
                    return
                }
            }
            renderValue(before, in: old, label: oldLabel, .removed, depth)
            renderValue(after, in: new, label: newLabel, .added, depth)
        case .object(let entries):
            emit(.context, depth, newLabel + "{")
            renderMembers(entries, depth: depth + 1)
            emit(.context, depth, "}")
        case .array(let entries, let oldArray, let newArray):
            emit(.context, depth, newLabel + "[")
            let ids = namesItemsByID ? ElementIDs(entries, oldArray, in: old, newArray, in: new, &scratch) : nil
            renderElements(entries, ids: ids, depth: depth + 1)
            emit(.context, depth, "]")
        }
    }

    private mutating func renderMembers(_ entries: [ObjectEntry], depth: Int) {
        for entry in entries {
            switch entry {
            case .unchanged(let name, let value, let count):
                fold(count: count, single: (label(name, in: new), value), depth)
            case .removed(let name, let value):
                renderValue(value, in: old, label: label(name, in: old), .removed, depth)
            case .added(let name, let value):
                renderValue(value, in: new, label: label(name, in: new), .added, depth)
            case .changed(let name, let inner):
                let label = label(name, in: new)
                render(inner, oldLabel: label, newLabel: label, depth: depth)
            }
        }
    }

    private mutating func renderElements(_ entries: [ArrayEntry], ids: ElementIDs?, depth: Int) {
        var count = 0
        var single: (label: String, value: TextValue)? = nil
        for entry in entries {
            if case .unchanged(_, let index, let run, let first) = entry {
                if count == 0 { single = (label(ids?.added(index) ?? .index(index)), first) }
                count += run
                continue
            }
            fold(count: count, single: single, depth)
            count = 0
            switch entry {
            case .unchanged:
                break
            case .removed(let index, let value):
                renderValue(value, in: old, label: label(ids?.removed(index) ?? .index(index)), .removed, depth)
            case .added(let index, let value):
                renderValue(value, in: new, label: label(ids?.added(index) ?? .index(index)), .added, depth)
            case .changed(let oldIndex, let newIndex, let inner):
                if let ids, case .id = ids.changed(old: oldIndex, new: newIndex) {
                    let label = label(ids.changed(old: oldIndex, new: newIndex))
                    render(inner, oldLabel: label, newLabel: label, depth: depth)
                } else {
                    render(inner, oldLabel: label(oldIndex), newLabel: label(newIndex), depth: depth)
                }
            }
        }
        fold(count: count, single: single, depth)
    }

    /// Unchanged context (in the new text): one member or element on one line, more as
    /// `… (N unchanged)`.
    private mutating func fold(count: Int, single: (label: String, value: TextValue)?, _ depth: Int) {
        if count == 1, let single {
            let rendered = ValueText.render(
                single.value, in: new, maxWidth: room(depth) - DisplayWidth.of(single.label),
                terminalSafe: terminalSafe, &scratch)
            emit(.context, depth, single.label + rendered.line)
        } else if count > 1 {
            emit(.fold, depth, "… (\(count) unchanged)")
        }
    }

    /// A whole value, on one line when it fits, else opened one member or element a line.
    private mutating func renderValue(
        _ value: TextValue, in reader: JSONTextReader, label: String, _ mark: Mark, _ depth: Int
    ) {
        switch reader.kind(value) {
        case .object where !reader.isEmptyContainer(value):
            let rendered = ValueText.render(
                value, in: reader, maxWidth: room(depth) - DisplayWidth.of(label), terminalSafe: terminalSafe, &scratch)
            guard rendered.isCut else { return emit(mark, depth, label + rendered.line) }
            emit(mark, depth, label + "{")
            for member in reader.visibleMembers(of: value, &scratch) {
                renderValue(member.value, in: reader, label: self.label(member.name, in: reader), mark, depth + 1)
            }
            emit(mark, depth, "}")
        case .array where !reader.isEmptyContainer(value):
            let rendered = ValueText.render(
                value, in: reader, maxWidth: room(depth) - DisplayWidth.of(label), terminalSafe: terminalSafe, &scratch)
            guard rendered.isCut else { return emit(mark, depth, label + rendered.line) }
            emit(mark, depth, label + "[")
            for (index, element) in reader.elementSequence(of: value).enumerated() {
                let kind = reader.kind(element)
                if !painter.enabled && kind != .string && kind != .array && kind != .object {
                    // The common case of a long list, without a String per line.
                    emitLeaf(mark, depth + 1, index: index, reader.raw(element))
                } else {
                    renderValue(element, in: reader, label: self.label(index), mark, depth + 1)
                }
            }
            emit(mark, depth, "]")
        case .number, .null, .true, .false:
            // The text as written (a number is printed as written anyway), without a formatter.
            emit(mark, depth, label: label, String(decoding: reader.raw(value), as: UTF8.self))
        default:
            let rendered = ValueText.render(value, in: reader, maxWidth: nil, terminalSafe: terminalSafe, &scratch)
            emit(mark, depth, label + rendered.line)
        }
    }

    /// A line `[index]: text` without colours, in place: the line of each number, boolean or
    /// null of an opened list, as `renderValue` writes it.
    private mutating func emitLeaf(_ mark: Mark, _ depth: Int, index: Int, _ text: UnsafeBufferPointer<UInt8>) {
        output.append(mark == .removed ? "- " : mark == .added ? "+ " : "  ")
        output.appendSpaces(2 * depth)
        output.append("[")
        output.appendDecimal(index)
        output.append("]: ")
        output.append(utf8: text)
        output.endLine()
    }

    /// The label of the member whose name's opening quote is at `name` of `reader`'s text.
    private mutating func label(_ name: Int, in reader: JSONTextReader) -> String {
        let key = reader.string(at: name, &scratch)
        return (StatePath.isPlainName(key) ? key : "[" + JSONPrinter.quoted(key, terminalSafe: true) + "]") + ": "
    }

    private func label(_ index: Int) -> String {
        "[\(index)]: "
    }

    /// The label of an element named by `component`: `[3]: ` or `[id: "MUG"]: `.
    private func label(_ component: StatePath.Component) -> String {
        switch component {
        case .index(let index): label(index)
        case .id(let id): "[id: \(id)]: "
        case .key(let name): "[" + JSONPrinter.quoted(name, terminalSafe: true) + "]: "
        }
    }
}
