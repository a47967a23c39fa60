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

    /// A printer for lines of `width` characters.
    public init(width: Int = 80, terminalSafe: Bool = true, colors: Bool = false) {
        self.width = width
        self.terminalSafe = terminalSafe
        self.colors = colors
    }

    /// The folded tree of `diff`, one line per `\n`-terminated line; empty when there is no
    /// change.
    public func text(_ diff: StateDiff) -> String {
        guard let root = diff.root else { return "" }
        var renderer = TreeRenderer(width: max(40, width), terminalSafe: terminalSafe, colors: colors)
        renderer.renderRoot(root)
        return renderer.lines.map { $0 + "\n" }.joined()
    }

    /// `diff.changes` in the paths form, one `\n`-terminated line each; empty when there is no
    /// change.
    public func paths(_ diff: StateDiff) -> String {
        diff.changes.map { line($0) + "\n" }.joined()
    }

    /// One change on one line, without a line end: `CartStore.lines[2].quantity: 1 → 2`,
    /// `CartStore.lines[3]: added {"sku": "A7"}`, `CatalogStore.loading: removed {}`. A line
    /// whose path or values hold text that is not Unicode (a lone surrogate escape, shown as
    /// `\ud800`) ends with `ValueText.notUnicodeNote`.
    public func line(_ change: StateChange) -> String {
        let line = plainLine(change)
        let pathIsNotUnicode = change.path.components.contains {
            if case .key(let key) = $0 { LoneSurrogates.isNotUnicode(key) } else { false }
        }
        return pathIsNotUnicode && !line.hasSuffix(ValueText.notUnicodeNote) ? line + ValueText.notUnicodeNote : line
    }

    /// `line(_:)` without the note on a path that is not Unicode text.
    private func plainLine(_ change: StateChange) -> String {
        let path = change.path.description
        let width = max(40, self.width)
        let painter = ANSIPainter(enabled: colors)
        switch change {
        case .changed(_, let from, let to):
            let valueWidth = max(16, (width - path.count - 5) / 2)
            let old = ValueText.line(from, maxWidth: valueWidth, terminalSafe: terminalSafe)
            let new = ValueText.line(to, maxWidth: valueWidth, terminalSafe: terminalSafe)
            return "\(path): \(painter.red(old)) → \(painter.green(new))"
        case .added(_, let value):
            let text = ValueText.line(value, maxWidth: max(16, width - path.count - 8), terminalSafe: terminalSafe)
            return "\(path): \(painter.green("added " + text))"
        case .removed(_, let value):
            let text = ValueText.line(value, maxWidth: max(16, width - path.count - 10), terminalSafe: terminalSafe)
            return "\(path): \(painter.red("removed " + text))"
        }
    }
}
