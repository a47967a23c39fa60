import TraceReader

/// The states of the store asked about that cannot be rebuilt, found even where no patch
/// touches the path: `when` says so on standard error and exits 1 (README, "The inspector").
extension ValueHistory {
    /// Rebuilds the store's states at its events with a step after `after` and before `before`
    /// (each when given), and notes in `passedOver` the first patch that does not apply after
    /// each whole state (`bad-patch`): from there to the next whole state, the store's states
    /// cannot be given, whether or not the patch touches the path.
    ///
    /// A walk of the changes rebuilds only the states of the events whose patch may change the
    /// value, so a patch that does not apply elsewhere went unseen, and an answer that could not
    /// read every state looked sound ("not in any state", exit 0). Each run of patches after a
    /// whole state is applied once, in order, to its end: the reader then names the first
    /// operation that does not apply. Nothing to do in a version 1 trace.
    package func passOverUnreadableStates(after: Int? = nil, before: Int? = nil) {
        let index = trace.index
        guard index.patched != nil else { return }
        let positions = self.positions(after: after, before: before)
        for position in positions where index.isPatched(position) {
            // The last patch of a run: the next event has a whole state, or the range ends.
            let next = position + 1
            guard next == positions.upperBound || !index.isPatched(next) else { continue }
            if case .failure(let error) = trace.storeState(ofStore: store, at: position) {
                passOver(error)
            }
        }
    }
}
