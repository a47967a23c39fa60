@_spi(RewindInternals) internal import RewindSupport

/// How many bytes of a file indexing has passed, counted by the indexing threads and read by
/// whoever shows the progress (`TraceIndexing.progress`).
///
/// A class because its identity is the point: one counter shared by the threads of one
/// indexing. The count is an `Atomic`, so it is `Sendable` without a lock.
final class IndexProgress: Sendable {
    private let bytes = AtomicCell<Int>(0)

    /// Counts `count` more bytes indexed.
    func add(_ count: Int) {
        bytes.add(count, ordering: .relaxed)
    }

    /// The bytes indexed so far.
    var byteCount: Int { bytes.load(ordering: .relaxed) }
}
