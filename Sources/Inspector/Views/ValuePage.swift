import TraceJSON

/// A value shown whole (`e` in the step view): what a changed value was and is, or a whole
/// state, pretty-printed and broken at the screen's width with every character kept, so that a
/// string longer than the screen, or a state nested 60 deep, reads in full.
struct ValuePage: Equatable {
    /// One value and what it is (`before`, `after`): nil when there is none (an added value
    /// has no `before`).
    struct Section: Equatable {
        let label: String
        let value: JSONValue?
    }

    /// What the page shows: `CatalogStore.loaded._0 at step 5`.
    let title: String
    let sections: [Section]

    /// The page for the value at `path` that `change` changed: before, then after.
    init(change: StateChange, step: Int) {
        title = "\(change.path) at step \(step)"
        sections = [Section(label: "before", value: change.before), Section(label: "after", value: change.after)]
    }

    /// The page for a whole `value`, named `name`.
    init(whole value: JSONValue, name: String, step: Int) {
        title = "\(name) at step \(step)"
        sections = [Section(label: "", value: value)]
    }

    /// The page's lines at `width` columns: the title, then each section's label, then its value, each line of
    /// the value continued under its own indentation where it is longer than the width (an
    /// indentation of more than half the width stops there).
    func lines(width: Int) -> [String] {
        // The title in full first: a path 60 levels deep is longer than the title bar.
        var lines = ScreenText.wrapped(title, lead: "", width: width - 1, atSpaces: false) + [""]
        for section in sections {
            if !section.label.isEmpty { lines.append(section.label + ":") }
            guard let value = section.value else {
                lines.append("  (none)")
                continue
            }
            let text = JSONPrinter.pretty(value, terminalSafe: true)
            let lead = section.label.isEmpty ? "" : "  "
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                // Indentation stops at half the width, so a value nested 60 deep still has room.
                let depth = line.prefix { $0 == " " }.count
                let indent = String(repeating: " ", count: min(depth, max(0, (width - 1) / 2 - lead.count)))
                lines += ScreenText.wrapped(
                    String(line.dropFirst(depth)), lead: lead + indent, width: width - 1, atSpaces: false)
            }
            lines.append("")
        }
        return lines
    }
}
