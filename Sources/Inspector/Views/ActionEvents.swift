import TraceQueries
import TraceReader

/// The events of one trace whose action column (`EventLine.action(of:)`: a transition's action,
/// another event's type) is one name, in file order: what the step view's action filter (`a`)
/// moves on, by binary search, once it is built (`ActionEventScan` builds it off the input
/// thread; until then the filter looks at the events one by one).
///
/// Built from each line's top-level members, reading the file in blocks: no event is decoded,
/// and no state is parsed.
struct ActionEvents: Sendable {
    /// The action the events have.
    let action: String
    /// The trace the indices are of: they are not used with another opening.
    let trace: TraceFile
    /// The indices of the events with that action, in order.
    let indices: [Int]

    /// Scans `trace` for the events whose action is `action`
    /// (`TraceFile.eventIndices(ofAction:)`); nil when `shouldStop` said to stop.
    static func scan(_ trace: TraceFile, action: String, shouldStop: () -> Bool = { false }) -> ActionEvents? {
        trace.eventIndices(ofAction: action, shouldStop: shouldStop).map {
            ActionEvents(action: action, trace: trace, indices: $0)
        }
    }

    /// The first index after `index` (before it, going back), nil when there is none.
    func index(after index: Int, forward: Bool) -> Int? {
        indices.position(after: index, forward: forward).map { indices[$0] }
    }
}
