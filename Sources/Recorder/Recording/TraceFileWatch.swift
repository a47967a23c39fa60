@_spi(RewindInternals) internal import RewindSupport

/// Notices that the file a recorder writes is no longer the one at its path: another program
/// (a second app started with the same trace path) replaced or removed it, so this app's later
/// events go into a file that no one can open by its name.
///
/// Cheap enough to ask after every write: it looks at the path at most once a second (a clock
/// read otherwise), comparing the device and inode there with those of the file the sink has
/// open, and answers once.
final class TraceFileWatch: Sendable {
    /// The trace's path, as the sink was given it.
    let path: String
    /// The device and inode of the file the sink writes.
    private let device: UInt64
    private let inode: UInt64
    /// When the path was last looked at (monotonic nanoseconds, as an `Int`); 0 before the first.
    private let lastLook = AtomicCell<Int>(0)
    /// Whether the replacement was found (and answered) already.
    private let found = AtomicCell<Bool>(false)
    /// The least time between two looks at the path.
    static let interval = 1_000_000_000

    /// A watch of `sink`'s file; nil when the system cannot say what it is.
    init?(_ sink: FileSink) {
        guard let status = sink.status else { return nil }
        path = sink.path
        device = status.device
        inode = status.inode
    }

    /// Once, when a look at the path (at most one a second) finds another file there or none:
    /// the message for `onError`. Nil otherwise.
    func replacedMessage() -> String? {
        guard !found.load(ordering: .relaxed) else { return nil }
        let now = Int(clamping: monotonicNanoseconds())
        let last = lastLook.load(ordering: .relaxed)
        guard last == 0 || now - last >= Self.interval else { return nil }
        lastLook.store(now, ordering: .relaxed)
        let there = try? SystemCalls.status(ofPath: path, followingLinks: true)
        if let there, there.device == device, there.inode == inode { return nil }
        guard found.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return nil }
        let whatIsThere =
            there.map { "another file (device \($0.device), inode \($0.inode)) is there now" } ?? "no file is there now"
        return
            "the trace file at \(path) was replaced or removed by another program (this app writes device \(device), inode \(inode); \(whatIsThere)), perhaps a second app started with the same trace path: this app's events go on into a file no one can open by that name. Give each app a trace path of its own"
    }
}
