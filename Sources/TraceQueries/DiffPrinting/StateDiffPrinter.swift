internal import ToolSupport
import TraceJSON
import TraceReader

/// Prints a `StateDiff` for people: as a folded tree, or as one line per change.
///
/// The tree form follows pointfreeco/swift-custom-dump's diffs: each line starts with `-`
/// (first state), `+` (second state) or a space (context), then the structure indented two
/// spaces a level, with only the changed branches opened. Unchanged members and elements
/// around them are folded: one is shown on one line, two or more in a row become
/// `… (N unchanged)`. Names are printed as in `StatePath` (`title:`, `["odd key"]:`), elements
/// by index (`[3]:`), values as `ValueText`. The members of an object at the top (an app state:
/// its stores) are printed without braces. Two lists of 100 items, one inserted:
///
///       CartStore: {
///         lines: [
///           … (50 unchanged)
///     +     [50]: {"sku": "A7", "quantity": 1}
///           … (50 unchanged)
///         ]
///       }
///
/// The paths form, which `when` reuses, is one line per change:
///
///     CartStore.lines[2].quantity: 1 → 2
///     CartStore.lines[3]: added {"sku": "A7", "quantity": 1}
///     CatalogStore.loading: removed {}
///
/// Every string from the states is escaped (see `ValueText`) unless `terminalSafe` is off.
public struct StateDiffPrinter: Sendable {
    /// The width to fit lines in, in characters: a value that fits is printed on one line, a
    /// longer one is opened over several; context and paths-form values are cut with `…` to
    /// fit. Changed values in the tree form are never cut. At least 40 is used.
    public var width: Int
    /// Whether strings are escaped so that they cannot drive a terminal (the default).
    public var terminalSafe: Bool
    /// Whether to colour the output with ANSI escapes: removals red, additions green, folded
    /// context dim. The caller decides (a terminal, no `NO_COLOR`).
    public var colors: Bool
    /// Whether, in the tree form, a changed string too long for its line shows only the part
    /// around its first difference, `…` on each cut side (as swift-custom-dump shows changed
    /// characters), rather than whole: for a screen that cuts lines at its edge, where the two
    /// whole strings would show the same start. Off by default (`diff` prints them whole).
    public var showsChangedPartOfLongStrings = false
    /// Whether elements of arrays whose elements are all objects with distinct ids (a string
    /// or an integer `id` member) are named by id, `[id: "MUG"]`, in both forms, so that a
    /// change to an item reads the same wherever the item sits (see
    /// `StateDiff.changes(namingItemsByID:)`). Off by default: elements by position.
    public var namesItemsByID = false

    /// A printer for lines of `width` characters.
    public init(width: Int = 80, terminalSafe: Bool = true, colors: Bool = false) {
        self.width = width
        self.terminalSafe = terminalSafe
        self.colors = colors
    }

    /// The folded tree of `diff`, one line per `\n`-terminated line; empty when there is no
    /// change.
    public func text(_ diff: StateDiff) -> String {
        var output = ChunkedText()
        renderTree(diff, into: &output)
        return output.text
    }

    /// `text(_:)` handed to `output` in pieces of about 64 KB as it is rendered, so that the
    /// diff of a state with a million changes, or a list of a million items added, is printed
    /// in little memory.
    public func write(_ diff: StateDiff, to output: (UnsafeRawBufferPointer) -> Void) {
        Self.inPieces(to: output) { renderTree(diff, into: &$0) }
    }

    /// Runs `render` on text whose pieces go to `output` as they fill up.
    private static func inPieces(
        to output: (UnsafeRawBufferPointer) -> Void, _ render: (inout ChunkedText) -> Void
    ) {
        withoutActuallyEscaping(output) { output in
            var chunks = ChunkedText(sink: output)
            render(&chunks)
            chunks.flush()
        }
    }

    private func renderTree(_ diff: StateDiff, into output: inout ChunkedText) {
        guard let root = diff.root else { return }
        diff.withReaders { old, new in
            var renderer = TreeRenderer(
                width: max(40, width), terminalSafe: terminalSafe, colors: colors, old: old, new: new, output: output)
            renderer.windowsChangedStrings = showsChangedPartOfLongStrings
            renderer.namesItemsByID = namesItemsByID
            renderer.renderRoot(root)
            output = renderer.output
        }
    }

    /// `diff.changes` in the paths form, one `\n`-terminated line each (`line(_:)` of each);
    /// empty when there is no change. The values are printed from the states' texts, cut to
    /// the width, so a large added value costs a line, not a tree.
    public func paths(_ diff: StateDiff) -> String {
        var output = ChunkedText()
        renderPaths(diff, into: &output)
        return output.text
    }

    /// `paths(_:)` handed to `output` in pieces of about 64 KB as it is rendered.
    public func writePaths(_ diff: StateDiff, to output: (UnsafeRawBufferPointer) -> Void) {
        Self.inPieces(to: output) { renderPaths(diff, into: &$0) }
    }

    private func renderPaths(_ diff: StateDiff, into output: inout ChunkedText) {
        guard let root = diff.root else { return }
        diff.withReaders { old, new in
            var walk = ChangeWalk(old: old, new: new, namesItemsByID: namesItemsByID)
            var scratch = JSONTextReader.Scratch()
            walk.forEach(root, at: StatePath()) { change in
                output.appendLine(
                    line(change.path) { widths in
                        switch change.kind {
                        case .changed(let from, let to):
                            .changed(
                                ValueText.render(
                                    from, in: old, maxWidth: widths.changed, terminalSafe: terminalSafe, &scratch),
                                ValueText.render(
                                    to, in: new, maxWidth: widths.changed, terminalSafe: terminalSafe, &scratch))
                        case .added(let value):
                            .added(
                                ValueText.render(
                                    value, in: new, maxWidth: widths.added, terminalSafe: terminalSafe, &scratch))
                        case .removed(let value):
                            .removed(
                                ValueText.render(
                                    value, in: old, maxWidth: widths.removed, terminalSafe: terminalSafe, &scratch))
                        }
                    })
            }
            output.flush()
        }
    }

    /// One change on one line, without a line end: `CartStore.lines[2].quantity: 1 → 2`,
    /// `CartStore.lines[3]: added {"sku": "A7"}`, `CatalogStore.loading: removed {}`. A line
    /// whose path or values hold text that is not Unicode (a lone surrogate escape, shown as
    /// `\ud800`) ends with `ValueText.notUnicodeNote`.
    public func line(_ change: StateChange) -> String {
        line(change.path) { widths in
            switch change {
            case .changed(_, let from, let to):
                .changed(
                    ValueText.render(from, maxWidth: widths.changed, terminalSafe: terminalSafe),
                    ValueText.render(to, maxWidth: widths.changed, terminalSafe: terminalSafe))
            case .added(_, let value):
                .added(ValueText.render(value, maxWidth: widths.added, terminalSafe: terminalSafe))
            case .removed(_, let value):
                .removed(ValueText.render(value, maxWidth: widths.removed, terminalSafe: terminalSafe))
            }
        }
    }

    /// A change's values, rendered to fit a width.
    enum RenderedChange {
        case changed(ValueText.Rendered, ValueText.Rendered)
        case added(ValueText.Rendered)
        case removed(ValueText.Rendered)
    }

    /// The widths a change's values have on its line, after its path.
    struct Widths {
        var changed: Int
        var added: Int
        var removed: Int
    }

    /// What a line needs of its change's path, worked out once for the many lines of one path
    /// (`when` prints a line for each change of one value): its text, its width in columns, and
    /// whether a name in it is not Unicode text.
    struct LinePath: Sendable {
        let text: String
        let width: Int
        let isNotUnicode: Bool

        init(_ path: StatePath) {
            text = path.description
            width = DisplayWidth.of(text)
            isNotUnicode = path.components.contains {
                if case .key(let key) = $0 { LoneSurrogates.isNotUnicode(key) } else { false }
            }
        }
    }

    /// The widths the values of a change at `path` have on its line.
    func widths(after path: LinePath) -> Widths {
        let width = max(40, self.width)
        return Widths(
            changed: max(16, (width - path.width - 5) / 2), added: max(16, width - path.width - 8),
            removed: max(16, width - path.width - 10))
    }

    /// The line of a change at `path` whose values `render` renders to fit the widths.
    private func line(_ path: StatePath, _ render: (Widths) -> RenderedChange) -> String {
        let path = LinePath(path)
        var bytes: [UInt8] = []
        appendLine(path, render(widths(after: path)), to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the line of a change at `path` whose values are `rendered` (to fit
    /// `widths(after: path)`), without a line end.
    func appendLine(_ path: LinePath, _ rendered: RenderedChange, to output: inout [UInt8]) {
        switch rendered {
        case .changed(let old, let new):
            appendLine(
                path, LineValues.changed(old.text.utf8, new.text.utf8),
                isNotUnicode: old.isNotUnicode || new.isNotUnicode, to: &output)
        case .added(let value):
            appendLine(path, LineValues.added(value.text.utf8), isNotUnicode: value.isNotUnicode, to: &output)
        case .removed(let value):
            appendLine(path, LineValues.removed(value.text.utf8), isNotUnicode: value.isNotUnicode, to: &output)
        }
    }

    /// A change's values as the UTF-8 of their rendered texts (`ValueText.Rendered.text`, or
    /// bytes that read the same).
    enum LineValues<Text: Sequence<UInt8>> {
        case changed(Text, Text)
        case added(Text)
        case removed(Text)
    }

    /// Appends the line of a change at `path` whose values' texts are `values`, `isNotUnicode`
    /// when one of them is not Unicode text, without a line end: the one writer of a
    /// paths-form line (`ValueChangeText` writes plain scalars' lines from their bytes with it).
    func appendLine<Text>(
        _ path: LinePath, _ values: LineValues<Text>, isNotUnicode valuesAreNotUnicode: Bool,
        to output: inout [UInt8]
    ) {
        let painter = ANSIPainter(enabled: colors)
        output.append(contentsOf: path.text.utf8)
        output.append(UInt8(ascii: ":"))
        output.append(UInt8(ascii: " "))
        switch values {
        case .changed(let old, let new):
            painter.red(old, to: &output)
            output.append(" → ")
            painter.green(new, to: &output)
        case .added(let value):
            painter.green(value, after: "added ", to: &output)
        case .removed(let value):
            painter.red(value, after: "removed ", to: &output)
        }
        if path.isNotUnicode || valuesAreNotUnicode { output.append(contentsOf: ValueText.notUnicodeNote.utf8) }
    }
}
