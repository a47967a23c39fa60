import Foundation
@_spi(RewindInternals) import RewindSupport
import TestSupport
import Testing

@testable import TraceReader

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A regular file of more than one part is streamed on several threads (`ParallelScan`'s
/// `scanOnCallingThread`: parts read and scanned on the others, the rules and the body on the
/// caller's): the lines, their events and problems, how far the reading went and the report are
/// those of the reading on one thread, wherever the parts end (in the middle of a line, on a
/// `\n`, inside a long line); the body runs on the calling thread only, gets the first rows
/// before the rest of the file is scanned, never more than a window of parts behind the
/// scanning, and stopping it stops the threads.
@Suite struct TraceStreamPipelineTests {
    /// What a stream gave: each line as a comparable value, and the report.
    struct Given: Equatable {
        var lines: [String] = []
        var report: ValidationReport?
    }

    static func stream(_ path: String, partSize: Int, parallelism: Int, stopAfter: Int = .max) throws -> Given {
        var validator = TraceValidator()
        validator.blockSize = partSize * 4
        validator.parallelism = parallelism
        var given = Given()
        given.report = try TraceStream(path: path, validator: validator).forEachScannedLine { line in
            let event = line.event.map { "\($0.index) \($0.line) \($0.event) \(Array($0.bytes))" } ?? "-"
            given.lines.append("\(line.line) \(line.end) \(event) \(line.problems)")
            return given.lines.count < stopAfter
        }
        return given
    }

    /// Calls `body` with the file at `path` open for reading.
    static func withOpenFile<Result>(_ path: String, _ body: (Int32) -> Result) throws -> Result {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw ValidationTestError("cannot open \(path)") }
        defer { close(descriptor) }
        return body(descriptor)
    }

    static let partSizes = [1, 7, 64, 333, 4096]

    @Test func damagedTracesAreStreamedAlikeOnTwoThreads() throws {
        var random = SeededGenerator(seed: 29)
        for round in 0..<60 {
            let bytes = DamagedTrace.make(using: &random)
            guard (try? TraceFile(bytes: bytes)) != nil else { continue }
            let file = try ValidationTemporaryFile(bytes)
            let alone = try Self.stream(file.path, partSize: 1 << 20, parallelism: 1)
            #expect(alone.lines.count > 0)
            for partSize in Self.partSizes {
                #expect(
                    try Self.stream(file.path, partSize: partSize, parallelism: 2) == alone,
                    "round \(round), part size \(partSize)")
            }
        }
    }

    /// Version 2: the patches are applied to the states in file order, so a patch that does not
    /// apply is reported on its own line whichever part it is in.
    @Test(arguments: [1, 2, 3] as [UInt64]) func versionTwoTracesAreStreamedAlikeOnTwoThreads(seed: UInt64) throws {
        var lines = PatchedTrace.make(seed: seed, events: 120).patched
        // A patch that does not apply, and a torn last line.
        lines.insert(
            #"{"type":"transition","seq":1000,"store":"CartStore","action":"x","changed":true,"patch":[{"op":"remove","path":"/missing/9"}]}"#,
            at: lines.count / 2)
        let text = lines.joined(separator: "\n") + "\n" + #"{"type":"transition","seq":5000,"sto"#
        let file = try ValidationTemporaryFile(Array(text.utf8))
        let alone = try Self.stream(file.path, partSize: 1 << 20, parallelism: 1)
        #expect(alone.report?.problems.contains { $0.kind == .truncated } == true)
        #expect(alone.report?.problems.count ?? 0 > 1)
        for partSize in Self.partSizes {
            #expect(try Self.stream(file.path, partSize: partSize, parallelism: 2) == alone, "part size \(partSize)")
        }
    }

    /// A body that stops ends the reading (the reading thread too) after the line it stopped on.
    @Test func aStreamOnTwoThreadsStopsWhereItsBodySays() throws {
        let lines = PatchedTrace.make(seed: 9, events: 300).whole
        let file = try ValidationTemporaryFile(Array((lines.joined(separator: "\n") + "\n").utf8))
        let alone = try Self.stream(file.path, partSize: 1 << 20, parallelism: 1)
        for stop in [1, 2, 50, 299] {
            let stopped = try Self.stream(file.path, partSize: 64, parallelism: 2, stopAfter: stop)
            #expect(stopped.lines == Array(alone.lines.prefix(stop)))
        }
    }

    /// The scan gives every line of the file, in order, with the bytes it has, whatever the part
    /// size and the number of threads, and only on the calling thread; its fields are those of
    /// scanning the line alone.
    @Test(arguments: [1, 2, 4]) func theScanGivesEveryLineInOrderOnTheCallingThread(width: Int) throws {
        var random = SeededGenerator(seed: 5)
        let bytes = DamagedTrace.make(using: &random) + Array(String(repeating: "y", count: 3000).utf8)
        let file = try ValidationTemporaryFile(bytes)
        var expected: [[UInt8]] = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if expected.last == [] { expected.removeLast() }
        let caller = pthread_self()
        for partSize in Self.partSizes + [1 << 20] {
            var given: [[UInt8]] = []
            var sameFields = true
            var elsewhere = 0  // lines given on another thread
            let scanner = ParallelScan(width: width, partSize: partSize)
            let outcome = try Self.withOpenFile(file.path) { descriptor in
                scanner.scanOnCallingThread(descriptor: descriptor, maximumLineLength: 1 << 20) {
                    line, fields, _, _ in
                    if pthread_equal(pthread_self(), caller) == 0 { elsewhere += 1 }
                    given.append(line.bytes.array)
                    if given.count > 1, !line.bytes.isEmpty, let alone = try? EventScanner.scan(line.bytes) {
                        sameFields = sameFields && fields.pointee.seq == alone.seq && fields.pointee.type == alone.type
                    }
                    return true
                }
            }
            guard case .finished = outcome else {
                Issue.record("part size \(partSize): \(outcome)")
                continue
            }
            #expect(given == expected, "part size \(partSize)")
            #expect(sameFields, "part size \(partSize)")
            #expect(elsewhere == 0, "part size \(partSize)")
        }
    }

    /// `TraceStream`'s body is public API: it runs on the calling thread, however many threads
    /// scan the file.
    @Test func theBodyRunsOnTheCallingThread() throws {
        let lines = PatchedTrace.make(seed: 3, events: 400).whole
        let file = try ValidationTemporaryFile(Array((lines.joined(separator: "\n") + "\n").utf8))
        var validator = TraceValidator()
        validator.blockSize = 256
        validator.parallelism = 4
        let caller = pthread_self()
        var given = 0
        var elsewhere = 0
        try TraceStream(path: file.path, validator: validator).forEachScannedLine(preparing: EventPreparer()) { _ in
            given += 1
            if pthread_equal(pthread_self(), caller) == 0 { elsewhere += 1 }
            return true
        }
        #expect(given >= 400)
        #expect(elsewhere == 0)
    }

    /// The first rows come before the rest of the file is scanned: the scanning threads' work
    /// on the later events waits until the body has had the first event. (A driver that scanned
    /// the whole file before handing any of it over would wait for ever; the deadline only ends
    /// that wait, and the test fails then.)
    @Test func theFirstRowsComeBeforeTheRestOfTheFileIsScanned() throws {
        let events = 600
        let lines = PatchedTrace.make(seed: 4, events: events).whole
        let file = try ValidationTemporaryFile(Array((lines.joined(separator: "\n") + "\n").utf8))
        var validator = TraceValidator()
        validator.blockSize = 1_024
        validator.parallelism = 2
        let firstEventGiven = DispatchSemaphore(value: 0)
        let timedOut = Guarded(0)  // the waits that timed out
        let preparer = EventPreparer()
        preparer.set { event, _ in
            // The events of the second half wait for the body's first event.
            if event.seq > events / 2 && firstEventGiven.wait(timeout: .now() + .seconds(60)) == .timedOut {
                timedOut.withLock { $0 += 1 }
            }
            firstEventGiven.signal()  // let the other waits through too
            return false
        }
        var first = true
        var given = 0
        try TraceStream(path: file.path, validator: validator).forEachScannedLine(preparing: preparer) { line in
            if line.event != nil && first {
                first = false
                firstEventGiven.signal()
            }
            if line.event != nil { given += 1 }
            return true
        }
        #expect(given == events)
        #expect(timedOut.withLock { $0 } == 0)
    }

    /// The scanning threads stay within a window of parts ahead of the body: while the body is
    /// held on a line (the first event, until some later event was prepared), no event beyond
    /// the window is prepared, nor at any later line.
    @Test(arguments: [2, 3]) func theScanStaysAWindowAheadOfTheBody(width: Int) throws {
        var text = #"{"type":"header","format":"rewind-trace","version":1,"machines":{}}"# + "\n"
        var starts: [Int] = [0]  // the offset of the line of event `seq` (line 0: the header)
        for seq in 1...500 {
            starts.append(text.utf8.count)
            text += #"{"type":"transition","seq":\#(seq),"store":"S","action":"a","changed":true,"state":{}}"# + "\n"
        }
        let file = try ValidationTemporaryFile(Array(text.utf8))
        let partSize = 32  // shorter than a line: a part owns one line at most
        let scanner = ParallelScan(width: width, partSize: partSize)
        let furthest = Guarded(0)  // the highest seq prepared so far
        let prepared = DispatchSemaphore(value: 0)
        let preparer = EventPreparer()
        preparer.set { event, output in
            furthest.withLock { $0 = max($0, event.seq) }
            prepared.signal()
            output.append(0x2A)
            return true
        }
        var beyond: [Int] = []  // the seqs at which an event past the window was prepared
        var held = false
        var given = 0
        let outcome = try Self.withOpenFile(file.path) { descriptor in
            scanner.scanOnCallingThread(
                descriptor: descriptor, maximumLineLength: 1 << 20, preparer: preparer
            ) { line, fields, _, _ in
                guard let seq = fields.pointee.seq, seq > 0 else { return true }
                given += 1
                if !held {
                    held = true
                    // Held until the other threads prepared an event; the deadline only ends a hang.
                    #expect(prepared.wait(timeout: .now() + .seconds(60)) == .success)
                }
                // The parts taken are fewer than `window` past this line's part.
                let limit = (starts[seq] / partSize + scanner.window) * partSize
                let ahead = furthest.withLock { $0 }
                if starts[ahead] >= limit { beyond.append(seq) }
                return line.bytes.count > 0
            }
        }
        guard case .finished = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(given == 500)
        #expect(beyond.isEmpty)
    }

    /// A body that stops stops the scanning threads: once the scan returns, none of them is
    /// still at work, and none starts again.
    @Test func stoppingTheBodyStopsTheScanningThreads() throws {
        let lines = PatchedTrace.make(seed: 8, events: 2_000).whole
        let file = try ValidationTemporaryFile(Array((lines.joined(separator: "\n") + "\n").utf8))
        let state = Guarded((working: 0, calls: 0))  // the work running now, and its calls so far
        let preparer = EventPreparer()
        preparer.set { event, output in
            state.withLock {
                $0.working += 1
                $0.calls += 1
            }
            output.append(contentsOf: "\(event.seq)".utf8)
            state.withLock { $0.working -= 1 }
            return true
        }
        for stop in [1, 3, 40] {
            let scanner = ParallelScan(width: 4, partSize: 100)
            var given = 0
            _ = try Self.withOpenFile(file.path) { descriptor in
                scanner.scanOnCallingThread(
                    descriptor: descriptor, maximumLineLength: 1 << 20, preparer: preparer
                ) { _, _, _, _ in
                    given += 1
                    return given < stop
                }
            }
            let after = state.withLock { $0 }
            #expect(given == stop)
            #expect(after.working == 0, "stop at \(stop)")
            // The whole file read on one thread: time for a thread left running to show itself.
            _ = try TraceStream(path: file.path).forEachLine { _ in true }
            #expect(state.withLock { $0.calls } == after.calls, "stop at \(stop)")
        }
    }

    /// A named pipe is not a regular file: it is read as it comes, on the calling thread, and
    /// gives what the file gives.
    @Test func aNamedPipeIsStreamedAsItsFileIs() throws {
        let lines = PatchedTrace.make(seed: 6, events: 3_000).whole
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        let file = try ValidationTemporaryFile(bytes)
        let fifo = file.folder + "/pipe"
        guard mkfifo(fifo, 0o600) == 0 else { throw ValidationTestError("cannot make \(fifo)") }
        let partSize = 1_024
        #expect(bytes.count > 4 * partSize)
        let expected = try Self.stream(file.path, partSize: partSize, parallelism: 2)
        let writer = Thread {
            let descriptor = open(fifo, O_WRONLY)
            guard descriptor >= 0 else { return }
            defer { close(descriptor) }
            var written = 0
            while written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { return }
                written += count
            }
        }
        writer.start()
        let piped = try Self.stream(fifo, partSize: partSize, parallelism: 2)
        #expect(piped.lines == expected.lines)
        // The same report, but for the name of what was read.
        #expect(piped.report?.events == expected.report?.events)
        #expect(piped.report?.problems == expected.report?.problems)
    }

    /// An `EventPreparer`'s work runs on the scanning thread: what a line comes with is what the
    /// work makes of its event, and the lines, events, problems and report are those of a stream
    /// without one, wherever the parts end. (Whether a line comes prepared at all depends on how
    /// the threads run; `theScanningThreadPreparesWhileTheCallerIsBusy` makes sure it does.)
    @Test(arguments: [7, 16, 64]) func preparedEventsAreThoseOfTheirLines(partSize: Int) throws {
        var random = SeededGenerator(seed: 41)
        var bytes = DamagedTrace.make(using: &random)
        while (try? TraceFile(bytes: bytes)) == nil { bytes = DamagedTrace.make(using: &random) }
        #expect(bytes.count > 4 * partSize)
        let file = try ValidationTemporaryFile(bytes)
        let alone = try Self.stream(file.path, partSize: partSize, parallelism: 2)
        var validator = TraceValidator()
        validator.blockSize = partSize * 4
        validator.parallelism = 2
        let preparer = EventPreparer()
        preparer.set { event, output in
            guard event.seq % 5 != 0 else { return false }  // refused: no prepared bytes
            output.append(contentsOf: "\(event.seq):\(event.bytes.count)".utf8)
            return true
        }
        var given = Given()
        var prepared = 0
        var wrong: [Int] = []
        given.report = try TraceStream(path: file.path, validator: validator).forEachScannedLine(
            preparing: preparer
        ) { line in
            let event = line.event.map { "\($0.index) \($0.line) \($0.event) \(Array($0.bytes))" } ?? "-"
            given.lines.append("\(line.line) \(line.end) \(event) \(line.problems)")
            if let row = line.prepared {
                prepared += 1
                let seq = line.event?.seq ?? -1
                let expected = "\(seq):\(line.event?.bytes.count ?? -1)"
                if seq % 5 == 0 || String(decoding: row, as: UTF8.self) != expected { wrong.append(line.line) }
            }
            Thread.sleep(forTimeInterval: 0.000_02)
            return true
        }
        #expect(given == alone)
        #expect(wrong.isEmpty)
    }

    /// While the calling thread is busy with a part, the scanning thread prepares the events of
    /// the parts after it, and they come with their lines. (The body holds the calling thread on
    /// its first line until the work has run once, however long a slow scanning thread takes, as
    /// under the Thread Sanitizer on a loaded machine; its parts hold several lines each, so
    /// that the parts it reads ahead have events to prepare.)
    @Test func theScanningThreadPreparesWhileTheCallerIsBusy() throws {
        var text = #"{"type":"header","format":"rewind-trace","version":1,"machines":{}}"# + "\n"
        for seq in 1...400 {
            text += #"{"type":"transition","seq":\#(seq),"store":"S","action":"a","changed":true,"state":{}}"# + "\n"
        }
        let file = try ValidationTemporaryFile(Array(text.utf8))
        var validator = TraceValidator()
        validator.blockSize = 1_024
        validator.parallelism = 2
        let preparer = EventPreparer()
        let firstPrepared = DispatchSemaphore(value: 0)
        preparer.set { event, output in
            output.append(contentsOf: "\(event.seq)".utf8)
            firstPrepared.signal()
            return true
        }
        var sawPreparation = false
        var prepared = 0
        var wrong: [Int] = []
        var events = 0
        _ = try TraceStream(path: file.path, validator: validator).forEachScannedLine(preparing: preparer) { line in
            guard let event = line.event else { return true }
            events += 1
            if let row = line.prepared {
                prepared += 1
                if String(decoding: row, as: UTF8.self) != "\(event.seq)" { wrong.append(line.line) }
            }
            if !sawPreparation {
                // The event itself, not a guess at how long it takes: the scanning thread must
                // prepare a later line while this one is held. The deadline only ends a hang.
                sawPreparation = firstPrepared.wait(timeout: .now() + .seconds(60)) == .success
            }
            return true
        }
        #expect(events == 400)
        #expect(sawPreparation)
        #expect(prepared > 0)
        #expect(wrong.isEmpty)
    }

    /// A preparation stopped part way (the body stopped) leaves the lines after the batch it
    /// stopped at without prepared bytes, those before with theirs.
    @Test(arguments: [0, 1, 2]) func aPreparationStoppedPartWayPreparesTheLinesBefore(batches: Int) throws {
        let events = 3 * PreparedRows.batchLines
        var text = #"{"type":"header","format":"rewind-trace","version":1,"machines":{}}"# + "\n"
        for seq in 1...events {
            text += #"{"type":"transition","seq":\#(seq),"store":"S","action":"a","changed":true,"state":{}}"# + "\n"
        }
        let part = try Self.part(of: text)
        defer { part.deallocate() }
        #expect(part.lines.count == events + 1)
        var asked = 0
        var rows = PreparedRows()
        rows.prepare(part) { event, output in
            output.append(contentsOf: "\(event.seq)".utf8)
            return true
        } while: {
            asked += 1
            return asked <= batches
        }
        let preparedLines = (batches + 1) * PreparedRows.batchLines
        ByteView.withBytes(of: rows.bytes) { buffer in
            for index in 0..<part.lines.count {
                let row = rows.line(index, in: buffer).map { $0.string }
                // Line 0 is the header: not an event, never prepared.
                let expected = index > 0 && index < preparedLines ? "\(index)" : nil
                #expect(row == expected, "line \(index)")
            }
        }
    }

    /// `text` read from a file as one part (to deallocate).
    static func part(of text: String) throws -> FilePart {
        let file = try ValidationTemporaryFile(Array(text.utf8))
        let descriptor = open(file.path, O_RDONLY)
        guard descriptor >= 0 else { throw ValidationTestError("cannot open \(file.path)") }
        defer { close(descriptor) }
        var part = FilePart()
        part.read(descriptor: descriptor, index: 0, size: text.utf8.count, maximumLineLength: 1 << 20)
        return part
    }

    /// What a part's events are prepared into: each event's bytes with its line, none for the
    /// header, a line that is not one JSON object, or an event the work refused.
    @Test func preparedRowsAreThoseOfTheirLines() throws {
        var text = #"{"type":"header","format":"rewind-trace","version":1,"machines":{}}"# + "\n"
        for seq in 1...40 {
            text +=
                seq % 7 == 0
                ? "not json\n"
                : #"{"type":"transition","seq":\#(seq),"store":"S","action":"a","changed":true,"state":{}}"# + "\n"
        }
        let part = try Self.part(of: text)
        defer { part.deallocate() }
        #expect(part.lines.count == 41)
        var rows = PreparedRows()
        rows.prepare(part) { event, output in
            guard event.seq % 5 != 0 else { return false }
            output.append(contentsOf: "\(event.seq)".utf8)
            return true
        }
        ByteView.withBytes(of: rows.bytes) { buffer in
            for index in 0..<part.lines.count {
                let row = rows.line(index, in: buffer).map { $0.string }
                let expected = index > 0 && index % 7 != 0 && index % 5 != 0 ? "\(index)" : nil
                #expect(row == expected, "line \(index)")
            }
        }
        rows.clear()
        ByteView.withBytes(of: rows.bytes) { buffer in
            #expect((0..<part.lines.count).allSatisfy { rows.line($0, in: buffer) == nil })
        }
    }
}

/// A value shared between a test's threads, behind a lock (the test target does not see
/// RewindSupport's `Lock`).
private final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value  // guarded by `lock`

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
