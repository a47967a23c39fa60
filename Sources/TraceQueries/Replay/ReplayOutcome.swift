@_spi(RewindInternals) internal import RewindSupport

// `TerminalText` moves from RewindSupport to ToolSupport on main: import it from where it is.
#if canImport(ToolSupport)
    @_spi(RewindInternals) internal import ToolSupport
#endif

/// What a replay found: the first divergence between the recording and today's code, or that
/// the session replays exactly.
public struct ReplayOutcome: Sendable {
    /// The trace replayed: its path, or the name given to its bytes.
    public var trace: String
    /// The first divergence, as `inspector compare` reports one (the step, both events, the
    /// state diff there, the causes); nil when the session replays exactly.
    public var difference: TraceDifference?
    /// How many events of the recording the replay reproduced before the divergence (all of
    /// them when there is none).
    public var agreeingEvents: Int
    /// How many actions the replay sent again (the others happened by themselves).
    public var sentActions: Int
    /// How many `restore` events it replayed.
    public var restores: Int

    /// Whether every event of the recording happened again, in order, with the same state.
    public var isExact: Bool { difference == nil }

    /// The outcome for people: `… the session replays exactly …`, or the divergence under a line
    /// that names its step and action, every string from the trace escaped.
    /// - Parameters:
    ///   - width: the width the state diff is fitted to.
    ///   - colors: ANSI colours in the state diff.
    public func report(width: Int = 100, colors: Bool = false) -> String {
        guard let difference else {
            return
                "\(TerminalText.safe(trace)): the session replays exactly: \(agreeingEvents) events, \(sentActions) actions sent again, \(restores) restores\n"
        }
        var heading = "\(TerminalText.safe(trace)): the replay diverges"
        if let event = difference.first.event {
            heading += " at step \(event.seq) (\(TraceDifference.describe(event, withArguments: false, short: true)))"
        } else if difference.position > 0 {
            heading += " after the recording's last event: today's code does more"
        }
        return heading + "\n" + difference.report(width: width, colors: colors)
    }
}
