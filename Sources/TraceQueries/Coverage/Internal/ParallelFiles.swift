import Dispatch
@_spi(RewindInternals) internal import RewindSupport
import TraceJSON
import TraceReader

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs one piece of work per file on the machine's cores, a file at a time per core, and gives
/// the results in the order of the files: how `TraceCoverage` reads a thousand small traces as
/// fast as `inspector validate` does.
enum ParallelFiles {
    /// `body` applied to each of `paths`, several at once; the results in the order of `paths`.
    static func map<Value: Sendable, Failure: Error>(
        _ paths: [String], width: Int = cores, _ body: @Sendable (String) throws(Failure) -> Value
    ) -> [Result<Value, Failure>] {
        guard !paths.isEmpty else { return [] }
        // Each worker takes the next index (an atomic counter) and writes its own slot; the
        // lock guards the array itself. `concurrentPerform` returns when every worker is done.
        let next = AtomicCell<Int>(0)
        let results = Lock<[Result<Value, Failure>?]>(Array(repeating: nil, count: paths.count))
        DispatchQueue.concurrentPerform(iterations: max(1, min(width, paths.count))) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < paths.count else { return }
                let result: Result<Value, Failure>
                do throws(Failure) {
                    result = .success(try body(paths[index]))
                } catch {
                    result = .failure(error)
                }
                results.withLock { $0[index] = result }
            }
        }
        return results.withLock { $0.map { $0! } }
    }

    /// The machine's cores.
    static var cores: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}
