import TraceReader

/// The transitions a run of events took, store by store: how often each `from → to` pair was
/// taken and by which actions, in the order first taken. The report counts the events it shows,
/// so a window's graphs count only that window.
struct TransitionCounts {
    private var entries: [String: [TransitionTally.Taken]] = [:]
    private var positions: [Key: Int] = [:]
    /// The actions of each pair, as a set (`contains` on the list was quadratic).
    private var actions: [Key: Set<String>] = [:]

    private struct Key: Hashable {
        var store: String
        var from: String
        var to: String
    }

    /// Counts one transition of `store` from `from` to `to` by `action`.
    mutating func record(store: String, from: String, to: String, action: String?) {
        let key = Key(store: store, from: from, to: to)
        if let position = positions[key] {
            entries[store, default: []][position].count += 1
            if let action, actions[key, default: []].insert(action).inserted {
                entries[store, default: []][position].actions.append(action)
            }
        } else {
            positions[key] = entries[store, default: []].count
            actions[key] = action.map { [$0] } ?? []
            entries[store, default: []].append(
                TransitionTally.Taken(from: from, to: to, count: 1, actions: action.map { [$0] } ?? []))
        }
    }

    /// The pairs `store` took, in the order first taken.
    func taken(by store: String) -> [TransitionTally.Taken] {
        entries[store] ?? []
    }
}
