@_spi(RewindInternals) import RewindSupport
import TestSupport
import Testing

@testable import TraceReader

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every problem a trace's lines can have: each is an issue on its line, and the rest of the
/// trace stays readable.
@Suite struct TraceFileProblemTests {
    typealias F = ReaderFixture

    /// Opens a trace held in `bytes`.
    private func open(_ bytes: [UInt8]) throws -> TraceFile {
        try TraceFile(bytes: bytes, name: "t.jsonl")
    }

    @Test func malformedLinesAreSkippedAndNamed() throws {
        let lines = [
            F.header(),
            F.register(1, "CatalogStore", state: #"{"idle":{}}"#, caseName: "idle"),
            #"{"type":"transition","seq":2,"#,  // not JSON
            #"[1,2,3]"#,  // JSON, not an object
            #"{"type":"transition","seq":4,"store":"A","action":"x","changed":true}"#,  // no state
            #"{"type":"register","seq":"5","store":"A","state":1}"#,  // seq of the wrong type
            #"{"seq":6,"store":"A","state":1}"#,  // no type
            #"{"type":"register","store":"A","state":1}"#,  // no seq
            #"{"type":"register","seq":8,"store":"A","state":1,"elapsed":"soon"}"#,  // elapsed not a number
            #"{"type":"register","seq":9,"store":"A","state":1,"args":[1]}"#,  // args not an object
            #"{"type":"register","seq":10,"store":"A","state":1} {}"#,  // two values
            "   ",  // only spaces
            F.register(12, "A", state: "12"),
        ]
        let trace = try open(Array(F.text(lines).utf8))
        #expect(trace.eventCount == 2)
        #expect(trace.event(at: 1)?.seq == 12)
        #expect(trace.event(at: 1)?.line == 13)
        let malformed = trace.issues.filter { $0.kind == .malformed }
        #expect(malformed.map(\.line) == Array(3...12))
        #expect(trace.issues.count == malformed.count)
        #expect(malformed[0].message.contains("column"))
        #expect(malformed[1].message.contains("array"))
        #expect(malformed[2].message.contains("\"state\""))
        #expect(malformed[3].message.contains("\"seq\" is not an integer"))
        #expect(malformed[4].message.contains("\"type\""))
        #expect(malformed[5].message.contains("\"seq\""))
        #expect(malformed[6].message.contains("\"elapsed\" is not a number"))
        #expect(malformed[7].message.contains("\"args\" is not an object"))
        #expect(trace.appState(atStep: 12) == ["CatalogStore": .object(["idle": .object([:])]), "A": .number("12")])
    }

    @Test func aTornLastLineIsNotAnEvent() throws {
        let text =
            F.text([F.header(machines: "{}"), F.register(1, "A", state: "1")])
            + #"{"type":"transition","seq":2,"store":"A","act"#
        let trace = try open(Array(text.utf8))
        #expect(trace.eventCount == 1)
        #expect(trace.lastStep == 1)
        #expect(trace.issues.map(\.kind) == [.truncated])
        #expect(trace.issues.first?.line == 3)
        #expect(trace.state(of: "A", atStep: 2) == .number("1"))
    }

    @Test func aCompleteLastLineWithoutItsNewlineIsAnEvent() throws {
        let text =
            F.text([F.header(machines: "{}"), F.register(1, "A", state: "1")]) + F.transition(2, "A", state: "2")
        let trace = try open(Array(text.utf8))
        #expect(trace.eventCount == 2)
        #expect(trace.issues.isEmpty)
        #expect(trace.state(of: "A", atStep: 2) == .number("2"))
        #expect(trace.event(at: 1)?.line == 3)
    }

    @Test func carriageReturnsAreReadAsNewlinesAndNotedOnce() throws {
        let lines = [
            F.header(), F.register(1, "CatalogStore", state: "1", caseName: "idle"),
            F.transition(2, "B", state: "\"two\""),
        ]
        let text = lines.map { $0 + "\r\n" }.joined()
        let trace = try open(Array(text.utf8))
        #expect(trace.eventCount == 2)
        #expect(trace.issues.map(\.kind) == [.carriageReturn])
        #expect(trace.issues.first?.line == 1)
        #expect(trace.issues.first?.message.contains("2 more") == true)
        #expect(trace.appState(atStep: 2) == F.replay(lines, through: 2)[2])
        #expect(trace.event(at: 1)?.state == .string("two"))
    }

    @Test func emptyLinesAreSkippedAndLineNumbersStayTrue() throws {
        // Lines: 1 header, 2 empty, 3 register, 4 "\r", 5 empty, 6 transition, 7 empty.
        let text =
            F.header(machines: "{}") + "\n\n" + F.register(1, "A", state: "1") + "\n\r\n\n"
            + F.transition(2, "A", state: "2") + "\n\n"
        let trace = try open(Array(text.utf8))
        #expect(trace.eventCount == 2)
        #expect(trace.event(at: 0)?.line == 3)
        #expect(trace.event(at: 1)?.line == 6)
        #expect((0..<trace.eventCount).map { trace.line(ofEventAt: $0) } == [3, 6])
        #expect((0...8).map { trace.eventIndex(atLine: $0) } == [nil, nil, nil, 0, nil, nil, 1, nil, nil])
        #expect(trace.line(ofEventAt: 2) == nil)
        let empty = trace.issues.filter { $0.kind == .emptyLine }
        #expect(empty.map(\.line) == [2, 4, 5, 7])
        #expect(trace.issues.contains { $0.kind == .carriageReturn && $0.line == 4 })
    }

    @Test func aNulByteOrInvalidUTF8MakesALineMalformed() throws {
        var bytes = Array(F.text([F.header(machines: "{}"), F.register(1, "A", state: "1")]).utf8)
        bytes +=
            Array(#"{"type":"transition","seq":2,"store":"A","action":"x","changed":true,"state":"a"#.utf8) + [0x00]
            + Array("\"}\n".utf8)
        bytes +=
            Array(#"{"type":"transition","seq":3,"store":"A","action":"x","changed":true,"state":"#.utf8) + [0x00]
            + Array("}\n".utf8)
        bytes +=
            Array(#"{"type":"transition","seq":4,"store":"A","action":"x","changed":true,"state":""#.utf8) + [
                0xFF, 0xFE,
            ]
            + Array("\"}\n".utf8)
        bytes +=
            Array(#"{"type":"transition","seq":5,"store":"A","action":"#.utf8) + [0x22, 0xC3, 0x28, 0x22]
            + Array(#","changed":true,"state":5}"#.utf8) + [0x0A]
        bytes += Array((F.transition(6, "A", state: "6") + "\n").utf8)
        let trace = try open(bytes)
        #expect(trace.eventCount == 2)
        #expect(trace.issues.map(\.kind) == [.malformed, .malformed, .malformed, .malformed])
        #expect(trace.issues.map(\.line) == [3, 4, 5, 6])
        #expect(trace.issues[2].message.contains("UTF-8"))
        #expect(trace.state(of: "A", atStep: 6) == .number("6"))
    }

    @Test func issuesOfOneKindStopAtAHundredAndSayHowManyMore() throws {
        let text =
            F.header(machines: "{}") + "\n" + String(repeating: "\n", count: 250) + F.register(1, "A", state: "1")
            + "\n"
        let trace = try open(Array(text.utf8))
        #expect(trace.eventCount == 1)
        #expect(trace.event(at: 0)?.line == 252)
        let empty = trace.issues.filter { $0.kind == .emptyLine }
        #expect(empty.count == IssueList.limitPerKind + 1)
        #expect(empty.last?.line == 2 + IssueList.limitPerKind)
        #expect(empty.last?.message.contains("\(250 - IssueList.limitPerKind) more") == true)
    }

    @Test func line1MustBeAHeader() throws {
        let cases: [(String, String)] = [
            (F.register(1, "A", state: "1") + "\n", "header"),
            (#"{"type":"header","format":"rewind-trace","version":3,"machines":{}}"# + "\n", "version 3"),
            (#"{"type":"header","format":"other","version":1,"machines":{}}"# + "\n", "format"),
            (#"{"type":"header","format":"rewind-trace","version":1}"# + "\n", "machines"),
            ("\n" + F.header() + "\n", "empty"),
            ("hello\n", "not JSON"),
        ]
        for (text, hint) in cases {
            #expect {
                _ = try TraceFile(bytes: Array(text.utf8), name: "x.jsonl")
            } throws: { error in
                guard let error = error as? TraceOpenError else { return false }
                return error.kind == .notATrace && error.line == 1 && error.description.hasPrefix("x.jsonl:1: ")
                    && error.message.contains(hint)
            }
        }
    }

    @Test func aLineLongerThanTheLimitIsMalformed() throws {
        let lines = [
            F.header(machines: "{}"),
            F.register(1, "A", state: "1"),
            F.transition(2, "A", state: "\"\(String(repeating: "x", count: 200))\""),
            F.transition(3, "A", state: "3"),
        ]
        let bytes = Array(F.text(lines).utf8)
        let bodyStart = try #require(bytes.firstIndex(of: 0x0A)) + 1
        let inMemory = ByteView.withBytes(of: bytes) { buffer in
            TraceIndexer.index(
                buffer, bodyStart: bodyStart, headerEndsInCarriageReturn: false, machines: [:], maximumLineLength: 150)
        }
        // Read from a file in blocks smaller than the long line, and in one block.
        let file = try ValidationTemporaryFile(bytes)
        let descriptor = openForReading(file.path)
        defer { close(descriptor) }
        let fromFile = try [64, 100, 1 << 20].map { blockSize in
            try TraceIndexer.index(
                descriptor: descriptor, size: bytes.count, bodyStart: bodyStart, headerEndsInCarriageReturn: false,
                machines: [:], maximumLineLength: 150, blockSize: blockSize)
        }
        for index in [inMemory] + fromFile {
            #expect(index.eventCount == 2)
            #expect(
                index.issues == [
                    TraceReadIssue(
                        line: 3, kind: .malformed,
                        message: "the line is longer than 150 bytes, the longest line a trace may have; skipped")
                ])
        }
    }

    /// A file cut short after its size was taken (another process truncating it while it is
    /// opened) reads short: the events that are there, and no crash. A mapped file would have
    /// killed the process with SIGBUS on the first missing page.
    @Test func aFileCutShortWhileItIsIndexedReadsShort() throws {
        let bytes = Array(F.text(F.generated(events: 2000)).utf8)
        let file = try ValidationTemporaryFile(bytes)
        let descriptor = openForReading(file.path)
        defer { close(descriptor) }
        let bodyStart = try #require(bytes.firstIndex(of: 0x0A)) + 1
        let whole = try TraceIndexer.index(
            descriptor: descriptor, size: bytes.count, bodyStart: bodyStart, headerEndsInCarriageReturn: false,
            machines: [:])
        // As if the file had been 100 KB longer when its size was taken, in 1 and in 4 pieces.
        for pieces in [1, 4] {
            let short = try TraceIndexer.index(
                descriptor: descriptor, size: bytes.count + 100_000, bodyStart: bodyStart,
                headerEndsInCarriageReturn: false,
                machines: [:], pieceCount: pieces, blockSize: 4096)
            #expect(short.eventCount == whole.eventCount)
            #expect(short.offsets == whole.offsets)
            #expect(short.issues == whole.issues)
        }
    }

    @Test func indexingInPiecesGivesTheSameTraceAsInOnePiece() throws {
        var lines = F.generated(events: 400)
        lines.insert("", at: 50)
        lines.insert(#"{"type":"transition","seq":"#, at: 120)
        lines.insert(#"{"type":"note","seq":1000}"#, at: 200)
        lines[300] += "\r"
        let bytes = Array((F.text(lines) + #"{"type":"tr"#).utf8)
        let header = try TraceFile(bytes: bytes).header
        let bodyStart = try #require(bytes.firstIndex(of: 0x0A)) + 1
        var traces = ByteView.withBytes(of: bytes) { buffer in
            [1, 2, 3, 7, 64, 1000].map { pieces in
                let index = TraceIndexer.index(
                    buffer, bodyStart: bodyStart, headerEndsInCarriageReturn: false, machines: header.machines,
                    pieceCount: pieces)
                return TraceFile(
                    TraceLoader.Loaded(source: TraceSource(bytes: bytes), header: header, index: index), path: "t")
            }
        }
        // The same from a file, read with `pread` in pieces and in blocks of every size that
        // cuts lines: each piece reads only its own range.
        let file = try ValidationTemporaryFile(bytes)
        let descriptor = openForReading(file.path)
        defer { close(descriptor) }
        for (pieces, blockSize) in [(1, 1 << 20), (2, 97), (3, 1000), (7, 4096), (64, 313)] {
            let index = try TraceIndexer.index(
                descriptor: descriptor, size: bytes.count, bodyStart: bodyStart, headerEndsInCarriageReturn: false,
                machines: header.machines, pieceCount: pieces, blockSize: blockSize)
            traces.append(
                TraceFile(
                    TraceLoader.Loaded(source: TraceSource(bytes: bytes), header: header, index: index), path: "t"))
        }
        let one = traces[0]
        #expect(one.eventCount == 401)  // the generated events and the note
        #expect(
            one.issues.map(\.kind).sorted { $0.rawValue < $1.rawValue }
                == [.carriageReturn, .emptyLine, .malformed, .seqOrder, .truncated, .unknownType])
        for trace in traces.dropFirst() {
            #expect(trace.eventCount == one.eventCount)
            #expect(trace.lastStep == one.lastStep)
            #expect(trace.storeNames == one.storeNames)
            #expect(trace.issues == one.issues)
            for index in 0..<one.eventCount {
                #expect(trace.event(at: index) == one.event(at: index))
                #expect(trace.step(ofEventAt: index) == one.step(ofEventAt: index))
            }
            for step in stride(from: 0, through: one.lastStep + 1, by: 7) {
                #expect(trace.appState(atStep: step) == one.appState(atStep: step))
            }
        }
    }
}

/// `open(2)` for reading (outside the suite, whose own `open` opens bytes).
private func openForReading(_ path: String) -> Int32 {
    open(path, O_RDONLY)
}
