/// "Did you mean …?" for a mistyped command or option: the known name closest to what was typed.
///
/// Close means an edit distance (insertions, deletions, substitutions, and two neighbouring
/// characters swapped, so `stpe` is one edit from `step`) of at most a third of the name's length
/// (at least 1, at most 3), or a known name that starts with what was typed (`--stor` for
/// `--store`). Ties go to the name listed first.
public enum Suggestion {
    /// The name of `known` closest to `typed`, or nil when none is close enough to suggest.
    public static func closest(to typed: String, among known: [String]) -> String? {
        let typedCharacters = Array(typed.lowercased())
        guard !typedCharacters.isEmpty else { return nil }
        var best: (name: String, distance: Int)?
        for name in known where name != typed {
            let candidate = Array(name.lowercased())
            let distance: Int
            if candidate.count > typedCharacters.count, candidate.starts(with: typedCharacters),
                typedCharacters.count >= 3
            {
                distance = 1
            } else {
                distance = editDistance(typedCharacters, candidate)
            }
            let allowed = min(3, max(1, candidate.count / 3))
            guard distance <= allowed else { continue }
            if best == nil || distance < best!.distance { best = (name, distance) }
        }
        return best?.name
    }

    /// `" (did you mean 'step'?)"` for a close name, else the empty string: a message's tail.
    public static func hint(for typed: String, among known: [String]) -> String {
        closest(to: typed, among: known).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// The optimal string alignment distance: Levenshtein's, with a swap of two neighbours as one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Names are short; a mistyped path given as a command is cut to keep this cheap.
        let a = Array(a.prefix(64))
        let b = Array(b.prefix(64))
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
