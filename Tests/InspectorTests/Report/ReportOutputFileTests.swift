import Foundation
import Testing

@testable import Inspector

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where `report -o` writes: a regular file is replaced through a temporary file created
/// exclusively; a pipe, a terminal or `-` is written as a stream; nothing else is touched.
@Suite struct ReportOutputFileTests {
    static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func aPlantedLinkAtATemporaryNameIsNeverFollowed() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        let victim = trace.sibling("victim.txt")
        try Data("someone else's file\n".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: victim)
        try FileManager.default.setAttributes([.posixPermissions: 0o604], ofItemAtPath: trace.path)
        // The names the report command used to write (it runs in this process, so with our pid).
        let output = trace.sibling("out.html")
        for name in ["out.html.tmp-\(getpid())", ".out.html.tmp-\(getpid())"] {
            try FileManager.default.createSymbolicLink(atPath: trace.sibling(name), withDestinationPath: victim)
        }
        let result = runReportCommand(["report", trace.path, "-o", output])
        #expect(result.status == 0, "\(result.err)")
        #expect(try trace.read("victim.txt") == "someone else's file\n")
        #expect(try Self.mode(victim) == 0o640)
        #expect(try Self.mode(output) == 0o604)
        #expect(try trace.read("out.html").hasPrefix("<!doctype html>"))
        // No temporary file is left behind.
        let left = try FileManager.default.contentsOfDirectory(atPath: trace.folder).filter { $0.contains(".tmp-") }
        #expect(left.sorted() == [".out.html.tmp-\(getpid())", "out.html.tmp-\(getpid())"])
    }

    @Test func aSymbolicLinkAsTheTargetIsRefused() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        let victim = trace.sibling("victim.txt")
        try Data("keep\n".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.createSymbolicLink(atPath: trace.sibling("link.html"), withDestinationPath: victim)
        let result = runReportCommand(["report", trace.path, "-o", trace.sibling("link.html")])
        #expect(result.status == 2)
        #expect(result.err.contains("link.html: is a symbolic link"))
        #expect(try trace.read("victim.txt") == "keep\n")
        let kind =
            try FileManager.default.attributesOfItem(atPath: trace.sibling("link.html"))[.type] as? FileAttributeType
        #expect(kind == .typeSymbolicLink)
    }

    @Test func aNamedPipeIsWrittenAsAStreamAndStaysAPipe() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        let fifo = trace.sibling("page.fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        // A reader, as `inspector report t.jsonl -o fifo & cat fifo` would have.
        let received = ReaderThread(path: fifo)
        let result = runReportCommand(["report", trace.path, "-o", fifo])
        #expect(result.status == 0, "\(result.err)")
        let page = received.wait()
        #expect(page.hasPrefix("<!doctype html>") && page.hasSuffix("</html>\n"))
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO)
    }

    @Test func aPipeThatNobodyReadsIsAnErrorNotAHang() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        let fifo = trace.sibling("nobody.fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        let result = runReportCommand(["report", trace.path, "-o", fifo])
        #expect(result.status == 2)
        #expect(result.err.contains("no program is reading this pipe"))
    }

    @Test func devNullIsWrittenToNotReplaced() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        var before = stat()
        try #require(stat("/dev/null", &before) == 0 && (before.st_mode & S_IFMT) == S_IFCHR)
        let result = runReportCommand(["report", trace.path, "-o", "/dev/null"])
        #expect(result.status == 0, "\(result.err)")
        var after = stat()
        #expect(stat("/dev/null", &after) == 0 && (after.st_mode & S_IFMT) == S_IFCHR)
        #expect(after.st_mode == before.st_mode && after.st_rdev == before.st_rdev)
    }

    @Test func aDashIsStandardOutputAndTheSummaryGoesToStandardError() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        let result = runReportCommand(["report", trace.path, "-o", "-"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.hasPrefix("<!doctype html>") && result.out.hasSuffix("</html>\n"))
        #expect(result.err.hasPrefix("wrote -: "))
        #expect(!FileManager.default.fileExists(atPath: trace.sibling("-")))
    }

    @Test func aDirectoryOrASocketIsRefused() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        #expect(runReportCommand(["report", trace.path, "-o", trace.folder]).err.contains("is a directory"))
        let socketPath = trace.sibling("s.sock")
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in socketPath.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0)
        let result = runReportCommand(["report", trace.path, "-o", socketPath])
        #expect(result.status == 2)
        #expect(result.err.contains("is not a regular file, a pipe or a terminal"))
    }
}

/// Reads a named pipe to its end on a thread of its own. The pipe is opened before `init`
/// returns, so that a writer finds its reader.
final class ReaderThread: @unchecked Sendable {
    // @unchecked: `text` is written by the thread before `done` is signalled, read after.
    private var text = ""
    private let done = DispatchSemaphore(value: 0)

    init(path: String) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        Thread.detachNewThread { [self] in
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            // Until a writer connects, poll waits (a pipe that never had one reports no end).
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while descriptor >= 0 {
                _ = poll(&entry, 1, 10_000)
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    bytes += chunk[..<count]
                } else if count == 0 || errno != EAGAIN {
                    break
                }
            }
            if descriptor >= 0 { close(descriptor) }
            text = String(decoding: bytes, as: UTF8.self)
            done.signal()
        }
    }

    func wait() -> String {
        done.wait()
        return text
    }
}
