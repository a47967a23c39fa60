import TraceJSON

/// What a restore did.
public struct RestoreReport: Sendable, Equatable {
    /// The step of the trace the stores were set to.
    public var step: Int
    /// The name of the trace file the states came from (the last part of its path), as the
    /// `restore` events record it.
    public var trace: String
    /// The stores set to their recorded state, each with a `restore` event, in the order they
    /// were registered with the `Restorer`.
    public var restored: [String]
    /// The stores asked for that have no state at that step (they registered later): left as
    /// they are, with no event.
    public var absent: [String]
    /// The paths whose live value was kept because the trace holds them as `"<redacted>"`,
    /// each starting with its store's name: `Session.token`.
    public var keptValues: [StatePath]

    /// A report of these parts.
    public init(step: Int, trace: String, restored: [String], absent: [String], keptValues: [StatePath]) {
        self.step = step
        self.trace = trace
        self.restored = restored
        self.absent = absent
        self.keptValues = keptValues
    }
}
