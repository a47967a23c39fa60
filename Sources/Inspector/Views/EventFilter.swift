import TraceReader

/// Which events the step view lists and steps through: all of them, or only one store's, one
/// action's, those that changed the state, or those with a problem (any together). Step 0, the
/// problems keys (`]` `[`) and a jump by number ignore it.
struct EventFilter: Equatable {
    /// Only this store's events.
    var store: String?
    /// Only events with this action (of any store, unless `store` is set too).
    var action: String?
    /// Only events that did not leave the state as it was (`changed` not false).
    var changedOnly = false
    /// Only events with a validation problem.
    var problemsOnly = false

    /// Whether every event passes.
    var isEmpty: Bool { self == EventFilter() }

    /// Whether `event` passes, `hasProblem` saying whether a problem is shown on it.
    func matches(_ event: TraceEvent, hasProblem: @autoclosure () -> Bool) -> Bool {
        if let store, event.store != store { return false }
        if let action, EventLine.action(of: event) != action { return false }
        if changedOnly && event.changed == false { return false }
        if problemsOnly && !hasProblem() { return false }
        return true
    }

    /// What the status line says after `filter: `: `CartStore · add · changed · with problems`.
    var summary: String {
        var parts: [String] = []
        if let store { parts.append(TTY.safe(store)) }
        if let action { parts.append(TTY.safe(action)) }
        if changedOnly { parts.append("changed") }
        if problemsOnly { parts.append("with problems") }
        return parts.joined(separator: " · ")
    }
}
