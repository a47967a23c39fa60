internal import ToolSupport

/// The part of a long changed string a person needs to see, as swift-custom-dump shows changed
/// characters: both sides cut to the same window around their first difference, `…` marking
/// each cut side, so that `"bottom of the long text, one"` → `"…long text, two"` shows the
/// change where a cut at the end would show the same start twice.
enum ChangedStringWindow {
    /// `old` and `new` (printed values, quotes included) each fitted to `width` terminal
    /// columns around their first differing character; nil when both fit whole.
    static func fitted(old: String, new: String, width: Int) -> (old: String, new: String)? {
        let width = max(8, width)
        guard DisplayWidth.of(old) > width || DisplayWidth.of(new) > width else { return nil }
        let before = Array(old)
        let after = Array(new)
        var first = 0
        while first < before.count, first < after.count, before[first] == after[first] { first += 1 }
        // About a third of the room shows what comes before the difference.
        var start = first
        var lead = 0
        while start > 0, lead + DisplayWidth.of(before[start - 1]) <= width / 3 {
            start -= 1
            lead += DisplayWidth.of(before[start])
        }
        // A start within a few characters of the beginning shows the beginning instead.
        if start <= 2 { start = 0 }
        return (window(before, from: start, width: width), window(after, from: start, width: width))
    }

    /// `characters` from `start` on, cut to `width` columns, with `…` on each cut side.
    private static func window(_ characters: [Character], from start: Int, width: Int) -> String {
        // A cut start keeps the opening quote: the value still reads as a string.
        var text = start == 0 ? "" : characters.first == "\"" ? "\"…" : "…"
        var columns = text.count
        var index = start
        while index < characters.count {
            let characterWidth = DisplayWidth.of(characters[index])
            let isLast = index == characters.count - 1
            if columns + characterWidth + (isLast ? 0 : 1) > width { break }
            text.append(characters[index])
            columns += characterWidth
            index += 1
        }
        return index < characters.count ? text + "…" : text
    }
}
