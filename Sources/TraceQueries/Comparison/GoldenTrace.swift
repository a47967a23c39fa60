import Recorder
@_spi(RewindInternals) internal import RewindSupport
import TraceReader

// `TerminalText` moves from RewindSupport to ToolSupport on main: import it from where it is.
#if canImport(ToolSupport)
    @_spi(RewindInternals) internal import ToolSupport
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A golden-trace test: a scenario recorded in a test (into a `MemorySink`) is compared with a
/// trace committed to the repository, and the test fails with the report of the first
/// difference (`TraceDifference.report()`): the step on both sides, the state diff there and
/// the causes that led to it.
///
/// ```swift
/// @Test func checkoutMatchesItsGoldenTrace() throws {
///     let sink = MemorySink()
///     let recorder = try TraceRecorder(sink: sink, machines: ["CatalogStore": CatalogState.self])
///     try runCheckout(recordingTo: recorder)  // the app's scenario, on stores made with it
///     try GoldenTrace.check(sink, against: "Tests/Golden/checkout.jsonl", ignoring: ["CartStore.lines[*].addedAt"])
/// }
/// ```
///
/// `check` throws a `GoldenTraceMismatch`, whose description is the report, so it fails an
/// XCTest (`try` in a `throws` test method) and a Swift Testing test alike. With the
/// environment variable `REWIND_RECORD_GOLDEN=1`, `check` writes the recording to the golden
/// file instead (creating it, or replacing it whole) where it differs, and then fails, saying it
/// recorded, as snapshot-testing libraries do: a run that records never passes as a check. Run the
/// tests once that way after a change meant to change the traces, then again without it, and
/// commit the files. A recording that matches its golden file is not written, and passes. Comparison is
/// `TraceComparison`'s: `elapsed`, `seq`, `source`, `stack` and `cause` never count.
public enum GoldenTrace {
    /// The environment variable that makes `check` re-record the golden files.
    public static let recordVariable = "REWIND_RECORD_GOLDEN"

    /// What `check` did.
    public enum Outcome: Sendable, Equatable {
        /// The recording agrees with the golden trace.
        case matched
    }

    /// Compares the trace `sink` holds with the golden trace at `path`.
    /// - Parameter ignoring: state paths left out on both sides (`StatePathPattern`), such as
    ///   timestamps and ids.
    /// - Throws: `GoldenTraceMismatch` when they differ, when the golden file is missing or is
    ///   not a trace, or when a path in `ignoring` cannot be read.
    @discardableResult
    public static func check(_ sink: MemorySink, against path: String, ignoring: [String] = [])
        throws(GoldenTraceMismatch) -> Outcome
    {
        try check(sink.data, against: path, ignoring: ignoring)
    }

    /// Compares the trace `recorded` (the bytes of a trace file) with the golden trace at `path`.
    /// - Throws: as `check(_:against:ignoring:)` with a sink.
    @discardableResult
    public static func check(_ recorded: [UInt8], against path: String, ignoring: [String] = [])
        throws(GoldenTraceMismatch) -> Outcome
    {
        try check(recorded, against: path, ignoring: ignoring, record: isRecording(environment(recordVariable)))
    }

    /// `check`, recording instead of comparing when `record` is true.
    @discardableResult
    static func check(_ recorded: [UInt8], against path: String, ignoring: [String], record: Bool)
        throws(GoldenTraceMismatch) -> Outcome
    {
        var patterns: [StatePathPattern] = []
        for text in ignoring {
            do {
                patterns.append(try StatePathPattern(parsing: text))
            } catch {
                throw GoldenTraceMismatch(description: "GoldenTrace: \(error)", difference: nil)
            }
        }
        if record {
            let matches = (try? check(recorded, against: path, patterns: patterns)) == .matched
            if matches { return .matched }
            do throws(SystemError) {
                try write(recorded, to: path)
            } catch {
                throw GoldenTraceMismatch(
                    description: "GoldenTrace: cannot write \(TerminalText.safe(path)): \(error.reason)",
                    difference: nil)
            }
            throw GoldenTraceMismatch(
                description:
                    "\(TerminalText.safe(path)): recorded (\(recordVariable) is set), so this check fails once; run the tests again without \(recordVariable), and commit the file",
                difference: nil)
        }
        return try check(recorded, against: path, patterns: patterns)
    }

    /// Compares `recorded` with the golden trace at `path`.
    private static func check(_ recorded: [UInt8], against path: String, patterns: [StatePathPattern])
        throws(GoldenTraceMismatch) -> Outcome
    {
        let result: TraceComparison.Result
        do {
            result = try TraceComparison(ignoring: patterns).compare(
                .file(path), .bytes(recorded, name: "the recording"))
        } catch {
            let missing = (try? SystemCalls.status(ofPath: path)) == nil
            let hint =
                missing
                ? "the golden trace does not exist; record it: \(recordVariable)=1 swift test, then commit it"
                : "\(error.message); re-record it: \(recordVariable)=1 swift test"
            throw GoldenTraceMismatch(description: "\(TerminalText.safe(path)): \(hint)", difference: nil)
        }
        guard let difference = result.difference else { return .matched }
        throw GoldenTraceMismatch(
            description: difference.report()
                + "If the change is meant, re-record the golden trace: \(recordVariable)=1 swift test, and commit \(TerminalText.safe(path)).",
            difference: difference)
    }

    /// Whether a value of `REWIND_RECORD_GOLDEN` asks to re-record: set, and not `0` or empty.
    static func isRecording(_ value: String?) -> Bool {
        guard let value else { return false }
        return !value.isEmpty && value != "0"
    }

    /// The value of the environment variable `name`, if it is set.
    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Writes `bytes` to `path` through a new file beside it, renamed over it, so that a failed
    /// write never leaves half a golden trace.
    static func write(_ bytes: [UInt8], to path: String) throws(SystemError) {
        let temporary = path + ".recording-\(getpid())"
        let file = try FileDescriptor.open(temporary, [.writeOnly, .create, .exclusive, .noFollow], permissions: 0o644)
        do throws(SystemError) {
            try file.writeAll(bytes)
            try file.close()
            try SystemCalls.rename(temporary, to: path)
        } catch {
            try? SystemCalls.unlink(temporary)
            throw error
        }
    }
}

/// A golden trace that does not match its recording, or cannot be compared with it:
/// `description` is the report (`TraceDifference.report()`) and what to do.
public struct GoldenTraceMismatch: Error, Sendable, CustomStringConvertible {
    /// The report, for the test's failure message.
    public var description: String
    /// The difference found; nil when the golden trace could not be compared at all.
    public var difference: TraceDifference?
}
