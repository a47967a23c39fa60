@_spi(RewindInternals) internal import RewindSupport

/// A sink that keeps the trace in memory, for tests (Rewind's and an app's own).
///
/// ```swift
/// let sink = MemorySink()
/// let recorder = try TraceRecorder(sink: sink, machines: ["CatalogStore": CatalogState.self])
/// let store = CatalogStore(recorder: recorder)
/// store.toLoading()
/// #expect(sink.lines.last?.contains("\"action\":\"toLoading\"") == true)
/// ```
public final class MemorySink: TraceSink {
    // Guarded by a `Lock` (a pthread mutex): tests read the lines while stores on other threads may still write.
    private let bytes = Lock<[UInt8]>([])

    /// Creates an empty sink.
    public init() {}

    /// Appends `line` to the bytes kept in memory.
    public func write(_ line: UnsafeRawBufferPointer) throws {
        bytes.withLock { $0.append(contentsOf: line) }
    }

    /// The whole trace as written.
    public var data: [UInt8] {
        bytes.withLock { $0 }
    }

    /// The whole trace as text.
    public var text: String {
        bytes.withLock { String(decoding: $0, as: UTF8.self) }
    }

    /// The trace's lines, without their `\n`; line 1 (index 0) is the header.
    public var lines: [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}
