import Foundation
import TestSupport
import Testing

@testable import TraceReader

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A regular file of more than one part is streamed on two threads (`ScanPipeline`: parts read
/// and scanned on one, the rules and the body on the caller's): the lines, their events and
/// problems, how far the reading went and the report are those of the reading on one thread,
/// wherever the parts end (in the middle of a line, on a `\n`, inside a long line).
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

    /// The pipeline gives every line of the file, in order, with the bytes it has, whatever the
    /// part size; its fields are those of scanning the line alone.
    @Test func thePipelineGivesEveryLineInOrder() throws {
        var random = SeededGenerator(seed: 5)
        let bytes = DamagedTrace.make(using: &random) + Array(String(repeating: "y", count: 3000).utf8)
        let file = try ValidationTemporaryFile(bytes)
        var expected: [[UInt8]] = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if expected.last == [] { expected.removeLast() }
        for partSize in Self.partSizes + [1 << 20] {
            let input = try TraceInput.open(file.path)
            var given: [[UInt8]] = []
            var sameFields = true
            let pipeline = ScanPipeline(partSize: partSize, window: 2)
            let outcome = pipeline.read(input, maximumLineLength: 1 << 20) {
                line, fields, _, _ in
                given.append(Array(line.bytes))
                if given.count > 1, !line.bytes.isEmpty, let alone = try? EventScanner.scan(line.bytes) {
                    sameFields = sameFields && fields.pointee.seq == alone.seq && fields.pointee.type == alone.type
                }
                return true
            }
            #expect(outcome == .finished)
            #expect(given == expected, "part size \(partSize)")
            #expect(sameFields, "part size \(partSize)")
        }
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

    /// A preparation stopped part way (the calling thread came to wait for the part) leaves the
    /// lines after the batch it stopped at without prepared bytes, those before with theirs.
    @Test(arguments: [0, 1, 2]) func aPreparationStoppedPartWayPreparesTheLinesBefore(batches: Int) throws {
        let events = 3 * ScanPipeline.batchLines
        var text = #"{"type":"header","format":"rewind-trace","version":1,"machines":{}}"# + "\n"
        for seq in 1...events {
            text += #"{"type":"transition","seq":\#(seq),"store":"S","action":"a","changed":true,"state":{}}"# + "\n"
        }
        let file = try ValidationTemporaryFile(Array(text.utf8))
        let descriptor = open(file.path, O_RDONLY)
        guard descriptor >= 0 else { throw ValidationTestError("cannot open \(file.path)") }
        defer { close(descriptor) }
        var part = FilePart()
        defer { part.deallocate() }
        part.read(descriptor: descriptor, index: 0, size: text.utf8.count, maximumLineLength: 1 << 20)
        #expect(part.lines.count == events + 1)
        var asked = 0
        var prepared = ScanPipeline.Prepared()
        let work: EventPreparer.Work = { event, output in
            output.append(contentsOf: "\(event.seq)".utf8)
            return true
        }
        prepared.prepare(part, with: work) {
            asked += 1
            return asked <= batches
        }
        let preparedLines = (batches + 1) * ScanPipeline.batchLines
        prepared.bytes.withUnsafeBytes { rows in
            for index in 0..<part.lines.count {
                let row = prepared.line(index, in: rows).map { String(decoding: $0, as: UTF8.self) }
                // Line 0 is the header: not an event, never prepared.
                let expected = index > 0 && index < preparedLines ? "\(index)" : nil
                #expect(row == expected, "line \(index)")
            }
        }
    }
}
