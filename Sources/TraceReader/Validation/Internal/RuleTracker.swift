/// Follows the rules over time of a trace (shared/TRACE_FORMAT.md, "Rules over time") as the
/// validator streams it: for each `within` rule, whether its store is in the rule's case since an
/// entering event, how many transitions it took there, and its clock; `notAtEnd` rules are
/// judged by the validator at the end, from each store's current case.
///
/// The validator tells it, for each event, the event's `elapsed` (`checkClocks`, before the event
/// changes anything, so that a leaving event can be the overdue one) and, for an event of a
/// rule's store, whether the event enters, stays in or leaves the rule's case (`transition`,
/// `setCase`). Each returns the entries overdue at this event; an entry is overdue at most once
/// (per rule: a rule with both `events` and `seconds` reports the first limit broken).
struct RuleTracker {
    /// One `within` rule's state for the current entry of its store into its case.
    private struct Entry {
        /// Whether the store is in the case since an entering event.
        var isActive = false
        /// The transitions of the store since it entered.
        var transitions = 0
        /// The entering event's `elapsed`, when it had one and the rule has `seconds`.
        var enteredAt: Double?
        /// Whether this entry was reported overdue.
        var reported = false
        /// The entering event's line and seq, for messages.
        var line = 0
        var seq = 0
    }

    /// An entry found overdue at an event.
    struct Overdue {
        /// The rule's index.
        var rule: Int
        /// True when its `events` were used up, false when its `seconds` ran out.
        var byEvents: Bool
        /// The entering event's line and seq.
        var enteredLine: Int
        var enteredSeq: Int
        /// For `seconds`: the time since the entering event, `elapsed − entered`.
        var after: Double
    }

    let rules: [TraceRule]
    /// The indices of the `within` rules, by store name, in the rules' order.
    let withinRulesByStore: [String: [Int]]
    private var entries: [Entry]
    /// The `within` rules whose entry has a running clock (active, not reported, entered with
    /// an `elapsed`, the rule has `seconds`).
    private var clocks: [Int] = []

    init(rules: [TraceRule]) {
        self.rules = rules
        var byStore: [String: [Int]] = [:]
        for (index, rule) in rules.enumerated() {
            if case .within = rule.condition { byStore[rule.store, default: []].append(index) }
        }
        withinRulesByStore = byStore
        entries = Array(repeating: Entry(), count: rules.count)
    }

    /// Whether some entry has a running clock: only then does an event's `elapsed` matter.
    var hasClocks: Bool { !clocks.isEmpty }

    /// Whether rule `index` needs the entering event's `elapsed`.
    func hasSeconds(_ index: Int) -> Bool {
        if case .within(_, _, .some) = rules[index].condition { return true }
        return false
    }

    /// Adds to `overdue` the rules whose entry's clock an event at `elapsed` runs out: `elapsed −
    /// entered > seconds`, in IEEE 754 doubles. Call it for every event that has an `elapsed`,
    /// before the event enters or leaves anything.
    mutating func checkClocks(elapsed: Double, overdue: inout [Overdue]) {
        var index = 0
        while index < clocks.count {
            let rule = clocks[index]
            guard case .within(_, _, let seconds?) = rules[rule].condition, let entered = entries[rule].enteredAt
            else {
                index += 1
                continue
            }
            let after = elapsed - entered
            if after > seconds {
                entries[rule].reported = true
                overdue.append(
                    Overdue(
                        rule: rule, byEvents: false, enteredLine: entries[rule].line, enteredSeq: entries[rule].seq,
                        after: after))
                clocks.remove(at: index)
            } else {
                index += 1
            }
        }
    }

    /// A transition of rule `index`'s store, whose machine has the rule's case: `fromIsCase`
    /// and `toIsCase` say whether its `from` and `to` are that case. Returns whether the entry is
    /// overdue at this transition (its K-th since entering still goes to the case).
    ///
    /// Decision: a transition into the case from another case while the store is in it (a
    /// discontinuity) is an entering event like any other: the entry starts over.
    mutating func transition(
        rule index: Int, fromIsCase: Bool, toIsCase: Bool, elapsed: Double?, line: Int, seq: Int
    ) -> Overdue? {
        guard toIsCase else {
            leave(index)
            return nil
        }
        guard fromIsCase else {
            enter(index, elapsed: elapsed, line: line, seq: seq)
            return nil
        }
        guard entries[index].isActive else { return nil }
        entries[index].transitions += 1
        guard case .within(_, let events?, _) = rules[index].condition,
            entries[index].transitions >= events, !entries[index].reported
        else { return nil }
        entries[index].reported = true
        stopClock(index)
        return Overdue(
            rule: index, byEvents: true, enteredLine: entries[index].line, enteredSeq: entries[index].seq, after: 0)
    }

    /// A register or restore of rule `index`'s store: `isCase` says whether its `case` is the
    /// rule's case (and the store's machine has it). It enters the case, or leaves it.
    mutating func setCase(rule index: Int, isCase: Bool, elapsed: Double?, line: Int, seq: Int) {
        if isCase { enter(index, elapsed: elapsed, line: line, seq: seq) } else { leave(index) }
    }

    /// An event after which rule `index` does not apply to its store (it has no machine, or its
    /// machine lacks the case): the store is not in the case.
    mutating func leave(_ index: Int) {
        guard entries[index].isActive else { return }
        entries[index] = Entry()
        stopClock(index)
    }

    private mutating func enter(_ index: Int, elapsed: Double?, line: Int, seq: Int) {
        stopClock(index)
        entries[index] = Entry(
            isActive: true, transitions: 0, enteredAt: hasSeconds(index) ? elapsed : nil, line: line, seq: seq)
        if entries[index].enteredAt != nil { clocks.append(index) }
    }

    private mutating func stopClock(_ index: Int) {
        if let position = clocks.firstIndex(of: index) { clocks.remove(at: position) }
    }
}
