@_spi(RewindInternals) internal import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file sink for long-running apps: when the next event would take a file past
/// `maximumBytes`, the trace goes on in a new file, and only the newest `maximumFiles` files are
/// kept, so a trace never fills a device.
///
/// Files are named after `path`: `run.jsonl`, then `run-2.jsonl`, `run-3.jsonl`, … Each file is
/// a whole trace of its own: the recorder starts it with the header and a `register` event for
/// every live store at its current state (its *opening*), and `seq` starts again at 1, so each
/// file validates and opens by itself. (A `cause` that points to an event of an earlier file is
/// left out.)
///
/// **Size.** A file never holds more than `maximumBytes`, with one exception: a file's opening
/// and its first event are written whole, even when together they pass the cap. So an event
/// larger than the cap gets a file of its own, and a store whose state is larger than the cap
/// makes each file hold its opening and one event.
///
/// **Names.** Only `path` itself is ever replaced (with `replacing: true`, as `FileSink` replaces:
/// the old name is removed, never written through). A later file is created new, with
/// `O_CREAT | O_EXCL | O_NOFOLLOW`: when its name is taken (a file of an earlier run, a symbolic
/// link, anything), the sink skips to the next free number, so it never truncates, follows or
/// deletes what it did not create in this run. `files` lists the names it used. Deleting the
/// oldest files beyond `maximumFiles` removes only files this sink created, and only while their
/// name still names that file (the same inode, holding the bytes the sink wrote).
///
/// Like `FileSink`, each line reaches the operating system in one `write(2)`, and files are
/// created with mode 0600.
public final class RollingFileSink: TraceSink {
    /// The first file's path; later files insert `-2`, `-3`, … before the extension.
    public let path: String
    /// The most bytes a file holds (see "Size" above), at least 4096.
    public let maximumBytes: Int
    /// How many files are kept; older ones are deleted. Nil keeps them all.
    public let maximumFiles: Int?

    /// A file this sink created: its number, its path, and what it is (its device and inode,
    /// and the bytes written to it), so that it is deleted only while its name still names it.
    private struct CreatedFile {
        var number: Int
        var path: String
        var identity: FileStatus?
        var bytes = 0
    }

    private struct Current {
        var sink: FileSink
        var bytes: Int
        /// The files created and not deleted, oldest first; the last is the one being written.
        var kept: [CreatedFile]
    }

    /// How many taken names a new file skips before the sink gives up.
    private static var maximumSkips: Int { 10_000 }

    // Guarded by a `Lock` (a pthread mutex): the recorder already calls sinks one at a time,
    // but the class must be Sendable on its own.
    private let current: Lock<Current>

    /// Opens the first file.
    /// - Parameters:
    ///   - maximumBytes: the most bytes a file holds; at least 4096.
    ///   - maximumFiles: how many files to keep, at least 2; nil keeps every file.
    ///   - replacing: replace an existing file at `path` instead of failing. Later files never
    ///     replace anything: they skip to a free name.
    public init(path: String, maximumBytes: Int, maximumFiles: Int? = nil, replacing: Bool = false)
        throws(TraceFileError)
    {
        self.path = path
        self.maximumBytes = max(maximumBytes, 4096)
        self.maximumFiles = maximumFiles.map { max($0, 2) }
        let first = try FileSink(path: path, replacing: replacing)
        let file = CreatedFile(number: 1, path: path, identity: first.status)
        current = Lock(Current(sink: first, bytes: 0, kept: [file]))
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

    /// The paths of the files this sink created that are still kept, oldest first; the last is
    /// the one being written.
    public var files: [String] {
        current.withLock { $0.kept.map(\.path) }
    }

    /// Appends `line` to the current file in one `write(2)`.
    public func write(_ line: UnsafeRawBufferPointer) throws {
        try current.withLock { current in
            try current.sink.write(line)
            current.bytes += line.count
        }
    }

    /// Makes the current file's lines survive a crash of the machine (`fsync`).
    public func synchronize() throws {
        try current.withLock { try $0.sink.synchronize() }
    }

    /// How many bytes the current file holds.
    var currentBytes: Int {
        current.withLock { $0.bytes }
    }

    /// Closes the current file and opens the next one whose name is free, deleting the oldest
    /// files beyond `maximumFiles`.
    func startNextFile() throws {
        try current.withLock { current in
            let (sink, file) = try createNext(after: current.kept.last?.number ?? 1)
            current.kept[current.kept.count - 1].bytes = current.bytes
            current.sink = sink
            current.bytes = 0
            current.kept.append(file)
            if let maximumFiles, current.kept.count > maximumFiles {
                let excess = current.kept.count - maximumFiles
                for old in current.kept.prefix(excess) { Self.delete(old) }
                current.kept.removeFirst(excess)
            }
        }
    }

    /// Creates the first file after number `number` whose name is free.
    private func createNext(after number: Int) throws(TraceFileError) -> (FileSink, CreatedFile) {
        var number = number
        var skipped = 0
        while true {
            number += 1
            let path = path(ofFile: number)
            do {
                let sink = try FileSink(path: path, replacing: false)
                return (sink, CreatedFile(number: number, path: path, identity: sink.status))
            } catch
                where (error.code == EEXIST || error.code == TraceFileError.notAFile) && skipped < Self.maximumSkips
            {
                skipped += 1  // A name this run did not create: leave it alone.
            }
        }
    }

    /// Removes `file` when its name still names the file this sink created: the same inode
    /// (which the system may give a new file once the old one is gone), holding what was written.
    private static func delete(_ file: CreatedFile) {
        guard let identity = file.identity,
            let now = try? SystemCalls.status(ofPath: file.path, followingLinks: false),
            now.isSameFile(as: identity), now.kind == .regular, now.size == file.bytes
        else { return }
        try? SystemCalls.unlink(file.path)
    }
}
