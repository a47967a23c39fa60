/// What encodes a store's transition events, except their `seq` and `elapsed`: each store of a
/// recorder that groups its writes has its own (see "Writing in groups" in `TraceRecorder`), so
/// stores on different threads encode at the same time, under their own locks, and the
/// recorder's lock only numbers the lines and queues them.
// @unchecked Sendable: used only by the thread that holds its store's lock (or, for the
// recorder's own, the recorder's lock).
final class TransitionEncoder: @unchecked Sendable {
    let encoder: StreamingEncoder
    /// The `source` text of the store's recent call sites.
    var sources = SourceCache()
    /// What could not be encoded in the line being built, for the recorder to report.
    var failure: String?

    init(_ encoder: StreamingEncoder) {
        self.encoder = encoder
    }
}
