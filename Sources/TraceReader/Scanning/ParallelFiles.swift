import Dispatch
@_spi(RewindInternals) internal import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs one piece of work per file, a few files at a time (one per core), and hands the results
/// over on the calling thread in the order of the files, each as soon as it and those before it
/// are done: how `inspector validate` reads many traces, and `TraceCoverage` a thousand small
/// ones.
///
/// The work runs on `width` work items of Dispatch's global queue, each taking the next file not
/// yet taken, not in a `concurrentPerform`: a large file is read on every core by a
/// `concurrentPerform` of its own (`ParallelScan`), which Dispatch runs serially when nested in
/// another.
package enum ParallelFiles {
    /// The machine's cores.
    package static var cores: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// How often the calling thread reports progress while it waits, in milliseconds.
    package static let progressInterval = 100

    /// What the work on one file tells of its progress: the bytes read so far, of how many.
    package struct Progress: Sendable {
        fileprivate let index: Int
        fileprivate let bytes: Lock<[(read: Int, total: Int)]>

        /// Records that `read` bytes of `total` are read; the calling thread adds them up over
        /// the files in flight.
        package func report(read: Int, total: Int) {
            bytes.withLock { $0[index] = (read, total) }
        }
    }

    /// What the worker threads and the calling thread share. The results are written by the
    /// worker that made them and taken (set back to nil, so their memory goes) by the calling
    /// thread; `results` and `bytes` are guarded by their locks, `next` is the next file to take.
    private final class Shared<Value: Sendable>: Sendable {
        let results: Lock<[Value?]>
        /// Per file: bytes read and size, as `Progress.report` last said (0 of 0 before).
        let bytes: Lock<[(read: Int, total: Int)]>
        let next = AtomicCell<Int>(0)
        /// Signalled once per result written.
        let finished = DispatchSemaphore(value: 0)

        init(count: Int) {
            results = Lock(Array(repeating: nil, count: count))
            bytes = Lock(Array(repeating: (0, 0), count: count))
        }
    }

    /// Runs `work` on each index of `0..<count`, at most `width` at once, started in order, and
    /// calls `deliver` on the calling thread with each index and its result, in order. Returns
    /// when every result was delivered.
    /// - Parameters:
    ///   - progress: when given, called on the calling thread about every `progressInterval` ms
    ///     while results are awaited, with the bytes read and the total that the files' work
    ///     reported (`Progress.report`), added up over all files.
    package static func forEach<Value: Sendable>(
        count: Int, width: Int = cores,
        _ work: @escaping @Sendable (_ index: Int, _ progress: Progress) -> Value,
        progress: ((_ read: Int, _ total: Int) -> Void)? = nil,
        deliver: (_ index: Int, _ value: Value) -> Void
    ) {
        guard count > 0 else { return }
        let shared = Shared<Value>(count: count)
        for _ in 0..<max(1, min(width, count)) {
            DispatchQueue.global().async {
                while true {
                    let index = shared.next.add(1, ordering: .relaxed).oldValue
                    guard index < count else { return }
                    let value = work(index, Progress(index: index, bytes: shared.bytes))
                    shared.results.withLock { $0[index] = value }
                    shared.finished.signal()
                }
            }
        }
        var next = 0
        while next < count {
            if progress != nil {
                _ = shared.finished.wait(timeout: .now() + .milliseconds(progressInterval))
            } else {
                shared.finished.wait()
            }
            let ready = shared.results.withLock { results in
                var ready: [Value] = []
                while next + ready.count < count, let value = results[next + ready.count] {
                    results[next + ready.count] = nil  // handed over: let its memory go
                    ready.append(value)
                }
                return ready
            }
            for value in ready {
                deliver(next, value)
                next += 1
            }
            if let progress, next < count {
                let (read, total) = shared.bytes.withLock { bytes in
                    bytes.reduce((0, 0)) { ($0.0 + $1.read, $0.1 + $1.total) }
                }
                progress(read, total)
            }
        }
    }

    /// `work` applied to each of `paths`, several at once; the results in the order of `paths`.
    package static func map<Value: Sendable, Failure: Error>(
        _ paths: [String], width: Int = cores, _ work: @escaping @Sendable (String) throws(Failure) -> Value
    ) -> [Result<Value, Failure>] {
        var results: [Result<Value, Failure>] = []
        results.reserveCapacity(paths.count)
        forEach(count: paths.count, width: width) { index, _ in
            Result { () throws(Failure) in try work(paths[index]) }
        } deliver: { _, result in
            results.append(result)
        }
        return results
    }
}
