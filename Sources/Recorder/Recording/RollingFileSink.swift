@_spi(RewindInternals) internal import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file sink for long-running apps: when a file reaches `maximumBytes`, the trace goes on in
/// a new file, and only the newest `maximumFiles` files are kept, so a trace never fills a
/// device.
///
/// Files are named after `path`: `run.jsonl`, then `run-2.jsonl`, `run-3.jsonl`, … Each file is
/// a whole trace of its own: the recorder starts it with the header and a `register` event for
/// every live store at its current state, and `seq` starts again at 1, so each file validates
/// and opens by itself. (A `cause` that points to an event of an earlier file is left out.)
///
/// Like `FileSink`, each line reaches the operating system in one `write(2)`, and files are
/// created with mode 0600.
public final class RollingFileSink: TraceSink {
    /// The first file's path; later files insert `-2`, `-3`, … before the extension.
    public let path: String
    /// The size at which a file is closed and the next one started. A file may end a little
    /// past it: the line that crosses it is written whole.
    public let maximumBytes: Int
    /// How many files are kept; older ones are deleted. Nil keeps them all.
    public let maximumFiles: Int?

    private struct Current {
        var sink: FileSink
        var number: Int
        var bytes: Int
    }

    // Guarded by a `Lock` (a pthread mutex): the recorder already calls sinks one at a time,
    // but the class must be Sendable on its own.
    private let current: Lock<Current>

    /// Opens the first file.
    /// - Parameters:
    ///   - maximumBytes: the size that starts a new file; at least 4096.
    ///   - maximumFiles: how many files to keep, at least 2; nil keeps every file.
    ///   - replacing: overwrite existing files instead of failing.
    public init(path: String, maximumBytes: Int, maximumFiles: Int? = nil, replacing: Bool = false)
        throws(TraceFileError)
    {
        self.path = path
        self.maximumBytes = max(maximumBytes, 4096)
        self.maximumFiles = maximumFiles.map { max($0, 2) }
        let first = try FileSink(path: path, replacing: replacing)
        current = Lock(Current(sink: first, number: 1, bytes: 0))
    }

    /// The path of file number `number` (1 is `path` itself).
    public func path(ofFile number: Int) -> String {
        guard number > 1 else { return path }
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        let folder = String(path.dropLast(name.count))
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return folder + name[..<dot] + "-\(number)" + name[dot...]
        }
        return path + "-\(number)"
    }

    /// The paths of the files written so far that are still kept, oldest first.
    public var files: [String] {
        let number = current.withLock { $0.number }
        let oldest = maximumFiles.map { max(1, number - $0 + 1) } ?? 1
        return (oldest...number).map(path(ofFile:))
    }

    public func write(_ line: UnsafeRawBufferPointer) throws {
        try current.withLock { current in
            try current.sink.write(line)
            current.bytes += line.count
        }
    }

    public func synchronize() throws {
        try current.withLock { try $0.sink.synchronize() }
    }

    /// Whether the current file is full.
    var isFull: Bool {
        current.withLock { $0.bytes >= maximumBytes }
    }

    /// Closes the current file and opens the next, deleting the oldest beyond `maximumFiles`.
    func startNextFile() throws {
        try current.withLock { current in
            let number = current.number + 1
            current.sink = try FileSink(path: path(ofFile: number), replacing: true)
            current.number = number
            current.bytes = 0
            if let maximumFiles, number - maximumFiles >= 1 {
                unlink(path(ofFile: number - maximumFiles))
            }
        }
    }
}
