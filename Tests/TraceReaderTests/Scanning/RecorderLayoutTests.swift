import Foundation
@_spi(RewindInternals) import RewindSupport
import TestSupport
import Testing

@testable import TraceReader

/// `EventScanner`'s fast path for lines laid out as the recorder writes them must give exactly
/// what the general scan gives, and leave every other line to it.
@Suite struct RecorderLayoutTests {
    private func bothScans(_ line: [UInt8]) -> (fast: EventFields?, general: EventFields?) {
        ByteView.withBytes(of: line) { bytes in
            (EventScanner.scanRecorderLayout(bytes), try? EventScanner.scanGenerally(bytes))
        }
    }

    /// `scanRecorderLine` of `bytes` (a line, its `\n` and what follows), and what it must give:
    /// the fast path's fields of the bytes before the first `\n`, and their count, or nil.
    private func lineScans(_ bytes: [UInt8]) -> (found: (Int, EventFields)?, expected: (Int, EventFields)?) {
        ByteView.withBytes(of: bytes) { bytes in
            var fields = EventFields()
            let count = EventScanner.scanRecorderLine(bytes, into: &fields)
            guard let end = bytes.firstIndex(of: 0x0A) else { return (count.map { ($0, fields) }, nil) }
            let line = bytes.prefix(end)
            return (count.map { ($0, fields) }, EventScanner.scanRecorderLayout(line).map { (end, $0) })
        }
    }

    /// Every event line of the committed traces, which the sample app's recorder wrote.
    private func recordedLines() throws -> [[UInt8]] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../traces").standardized
        var lines: [[UInt8]] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".jsonl") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            lines += text.split(separator: "\n").dropFirst().map { Array($0.utf8) }
        }
        return lines
    }

    @Test func takesEveryLineTheRecorderWroteAndAgreesWithTheGeneralScan() throws {
        let lines = try recordedLines()
        #expect(lines.count > 30)
        for line in lines {
            let (fast, general) = bothScans(line)
            #expect(fast != nil, "not taken by the fast path: \(String(decoding: line, as: UTF8.self))")
            #expect(fast == general, "\(String(decoding: line, as: UTF8.self))")
        }
    }

    /// Lines in the layout of the format's version 2 page: a register's machine, a restore, a
    /// patch, a stack.
    private static let versionTwoLines = [
        #"{"type":"register","seq":1,"elapsed":0,"store":"S","case":"a","machine":{"initial":"a","transitions":{"a":["b"],"b":[]}},"state":{"n":[1,2]}}"#,
        #"{"type":"restore","seq":4,"elapsed":2.5,"store":"S","case":"b","state":{"b":1},"step":2,"trace":"run.jsonl"}"#,
        #"{"type":"transition","seq":3,"elapsed":0.5,"store":"S","action":"a","from":"a","to":"b","changed":true,"patch":[{"op":"replace","path":"/n/0","value":2}],"source":"f.swift:1","cause":2,"args":{"n":1},"stack":["f (A.swift:1)","g"]}"#,
    ]

    @Test func readsEveryOptionalMemberTheRecorderWrites() {
        let lines =
            Self.versionTwoLines + [
                #"{"type":"register","seq":1,"elapsed":0,"store":"S","state":[]}"#,
                #"{"type":"register","seq":1,"elapsed":1e-3,"store":"S","case":"idle","state":{"idle":{}}}"#,
                #"{"type":"transition","seq":2,"elapsed":0.5,"store":"S","action":"a","changed":false,"state":null,"source":"f.swift:1"}"#,
                #"{"type":"transition","seq":3,"elapsed":0.5,"store":"S","action":"a","from":"x","to":"y","changed":true,"state":{"k":"\u00e9\n"},"source":"f.swift:1","cause":2,"args":{"n":1}}"#,
                #"{"type":"transition","seq":3,"elapsed":0.5,"store":"S\"q","action":"é","changed":true,"state":1,"source":"f.swift:1","args":{}}"#,
                // The keys of the format's version 2 page.
                #"{"type":"register","seq":1,"elapsed":0,"store":"S","case":"a","machine":{"initial":"a","transitions":{"a":[]}},"state":[]}"#,
                #"{"type":"register","seq":1,"elapsed":0,"store":"S","case":"a","state":[],"machine":{"initial":"a","transitions":{"a":[]}}}"#,
                #"{"type":"register","seq":1,"elapsed":0,"store":"S","machine":{"initial":"x"},"state":[]}"#,
                #"{"type":"restore","seq":4,"elapsed":2.5,"store":"S","case":"a","state":{"a":1},"step":2,"trace":"run.jsonl"}"#,
                #"{"type":"restore","seq":4,"elapsed":2.5,"store":"S","state":{"a":1}}"#,
                #"{"type":"transition","seq":3,"elapsed":0.5,"store":"S","action":"a","from":"x","to":"y","changed":true,"patch":[{"op":"replace","path":"/a","value":2}],"source":"f.swift:1"}"#,
                #"{"type":"transition","seq":3,"elapsed":0.5,"store":"S","action":"a","changed":true,"patch":7,"source":"f.swift:1","cause":2,"args":{"n":1},"stack":["f (A.swift:1)","g"]}"#,
                #"{"type":"transition","seq":3,"elapsed":0.5,"store":"S","action":"a","changed":true,"state":1,"source":"f.swift:1","stack":[]}"#,
            ]
        for line in lines.map({ Array($0.utf8) }) {
            let (fast, general) = bothScans(line)
            #expect(fast != nil, "\(String(decoding: line, as: UTF8.self))")
            #expect(fast == general, "\(String(decoding: line, as: UTF8.self))")
        }
    }

    @Test func leavesOtherLayoutsToTheGeneralScan() {
        let lines = [
            #"{ "type":"register","seq":1,"elapsed":0,"store":"S","state":[]}"#,  // whitespace
            #"{"type":"register","seq":1,"elapsed":0,"store":"S","state":[]} "#,
            #"{"seq":1,"type":"register","elapsed":0,"store":"S","state":[]}"#,  // another order
            #"{"type":"register","seq":1.0,"elapsed":0,"store":"S","state":[]}"#,  // a wrong type
            #"{"type":"register","seq":1,"elapsed":"0","store":"S","state":[]}"#,
            #"{"type":"register","seq":1,"elapsed":0,"store":null,"state":[]}"#,
            #"{"type":"transition","seq":2,"elapsed":0,"store":"S","action":"a","from":"x","changed":true,"state":1,"source":"s"}"#,
            #"{"type":"transition","seq":2,"elapsed":0,"store":"S","action":"a","changed":1,"state":1,"source":"s"}"#,
            #"{"type":"transition","seq":2,"elapsed":0,"store":"S","action":"a","changed":true,"state":1,"source":"s","args":[]}"#,
            #"{"type":"transition","seq":2,"elapsed":0,"store":"S","action":"a","changed":true,"state":1,"source":"s","extra":1}"#,
            #"{"type":"snapshot","seq":2,"elapsed":0,"store":"S","state":1}"#,  // a type it does not know
            #"{"type":"regi\u0073ter","seq":1,"elapsed":0,"store":"S","state":[]}"#,
            #"{"type":"register","seq":1,"elapsed":0,"store":"S","state":[1,]}"#,  // invalid JSON
            #"{"type":"register","seq":01,"elapsed":0,"store":"S","state":[]}"#,
            #"{"type":"register","seq":1,"elapsed":0,"store":"S","state":[]}}"#,
            #"{"type":"register","seq":1,"elapsed":0,"store":"S","state":[]"#,
            #"{"type":"register","seq":1,"elapsed":0,"store":"S","machine":[],"state":[]}"#,
            #"{"type":"register","seq":1,"elapsed":0,"store":"S","machine":{},"state":[],"machine":{}}"#,
            #"{"type":"restore","seq":4,"elapsed":2.5,"store":"S","case":"a","state":1,"step":"2"}"#,
            #"{"type":"restore","seq":4,"elapsed":2.5,"store":"S","case":"a","state":1,"trace":2}"#,
            #"{"type":"restore","seq":4,"elapsed":2.5,"store":"S","machine":{},"state":1}"#,
            #"{"type":"transition","seq":2,"elapsed":0,"store":"S","action":"a","changed":true,"state":1,"patch":[],"source":"s"}"#,
            #"{"type":"transition","seq":2,"elapsed":0,"store":"S","action":"a","changed":true,"state":1,"source":"s","stack":[1]}"#,
        ]
        for line in lines.map({ Array($0.utf8) }) {
            #expect(bothScans(line).fast == nil, "\(String(decoding: line, as: UTF8.self))")
        }
    }

    /// Recorded lines with a byte deleted, replaced or inserted at random: wherever the fast path
    /// still reads one, it must read what the general scan reads.
    @Test func agreesWithTheGeneralScanOnDamagedLines() throws {
        var random = SeededGenerator(seed: 0x1A70)
        let lines = try recordedLines() + Self.versionTwoLines.map { Array($0.utf8) }
        let bytes: [UInt8] =
            Array(#"{}[],:"\ 0123456789.eE+-tfnulrsaxyz"#.utf8) + [0x00, 0x0A, 0x0D, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF]
        var taken = 0
        for _ in 0..<20_000 {
            var line = lines[Int.random(in: 0..<lines.count, using: &random)]
            let position = Int.random(in: 0..<line.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: line.remove(at: position)
            case 1: line[position] = bytes.randomElement(using: &random)!
            default: line.insert(bytes.randomElement(using: &random)!, at: position)
            }
            let (fast, general) = bothScans(line)
            if let fast {
                taken += 1
                #expect(fast == general, "\(String(decoding: line, as: UTF8.self))")
            }
            // Followed by `\n` and the next line (or not), its end found by the scan.
            let next = lines[Int.random(in: 0..<lines.count, using: &random)]
            for bytes in [line + [0x0A] + next, line + [0x0A], line, line + [0x0D, 0x0A]] {
                let (found, expected) = lineScans(bytes)
                #expect(found?.0 == expected?.0, "\(String(decoding: bytes, as: UTF8.self))")
                #expect(found?.1 == expected?.1, "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
        #expect(taken > 1000)  // the damage often lands inside a value and leaves the layout
    }

    /// The scan that finds the line's end stops at the first `\n` after the closing `}`, reads
    /// the same fields as the scan of the line alone, and takes no line that ends elsewhere.
    @Test func findsTheEndOfEveryRecordedLineItScans() throws {
        let lines = try recordedLines() + Self.versionTwoLines.map { Array($0.utf8) }
        for (index, line) in lines.enumerated() {
            let bytes = line + [0x0A] + lines[(index + 1) % lines.count] + [0x0A]
            let (found, expected) = lineScans(bytes)
            #expect(found != nil && found?.0 == line.count, "\(String(decoding: line, as: UTF8.self))")
            #expect(found?.1 == expected?.1, "\(String(decoding: line, as: UTF8.self))")
        }
    }

    /// A value skipped by the general skip, which takes whitespace, may run over a `\n` into the
    /// next line and end there in the layout: the line is not taken (it ends at its `\n`).
    @Test func takesNoLineThatRunsOverItsNewline() {
        let split = [
            "{\"type\":\"register\",\"seq\":1,\"elapsed\":0,\"store\":\"S\",\"state\":{\"a\":\n1}}\n",
            "{\"type\":\"register\",\"seq\":1,\"elapsed\":0,\"store\":\"S\",\"state\":[1\n,2]}\n",
            "{\"type\":\"transition\",\"seq\":2,\"elapsed\":0,\"store\":\"S\",\"action\":\"a\",\"changed\":true,"
                + "\"patch\":[\n],\"source\":\"s\"}\n",
            "{\"type\":\"transition\",\"seq\":2,\"elapsed\":0,\"store\":\"S\",\"action\":\"a\",\"changed\":true,"
                + "\"state\":1,\"source\":\"s\",\"args\":{\"n\" :\n1}}\n",
        ]
        for text in split {
            let (found, expected) = lineScans(Array(text.utf8))
            #expect(found == nil && expected == nil, "\(text)")
        }
        // The same values on one line are taken.
        for text in split.map({ $0.dropLast().replacingOccurrences(of: "\n", with: " ") + "\n" }) {
            let (found, expected) = lineScans(Array(text.utf8))
            #expect(found != nil && found?.0 == expected?.0 && found?.1 == expected?.1, "\(text)")
        }
    }

    /// The type and the `seq` name are matched as one literal per type: a line whose start
    /// departs from it anywhere (a byte changed, added or removed, an escape in the type) is left
    /// to the general scan or read as it reads it, and the type's text is the bytes between its
    /// quotes.
    @Test func readsTheTypeAndSeqNameAsTheGeneralScanDoes() {
        let lines = [
            #"{"type":"transition","seq":3,"elapsed":0.5,"store":"S","action":"a","changed":true,"state":1,"source":"f.swift:1"}"#,
            #"{"type":"register","seq":1,"elapsed":0,"store":"S","state":{"a":1}}"#,
            #"{"type":"restore","seq":4,"elapsed":2.5,"store":"S","state":{"a":1}}"#,
            #"{"type":"transit\u0069on","seq":3,"elapsed":0.5,"store":"S","action":"a","changed":true,"state":1,"source":"f.swift:1"}"#,
            #"{"type":"register","seq":1,"elapsed":0,"store":"S","action":"a","changed":true,"state":1,"source":"f.swift:1"}"#,
            #"{"type":"transition","seq":3,"elapsed":0.5,"store":"S","state":{"a":1}}"#,
        ].map { Array($0.utf8) }
        for (index, line) in lines.enumerated() {
            let (fast, general) = bothScans(line)
            #expect(fast == nil || fast == general, "\(String(decoding: line, as: UTF8.self))")
            if index < 3 {
                #expect(fast != nil && fast?.type?.range == 9..<(line.firstIndex(of: UInt8(ascii: ",")) ?? 0) - 1)
            }
            // Every byte of the start, up to the seq's value: changed, doubled or removed.
            for offset in 0..<30 {
                for change in 0..<4 {
                    var damaged = line
                    switch change {
                    case 0: damaged[offset] = UInt8(ascii: "x")
                    case 1: damaged[offset] = UInt8(ascii: "\\")
                    case 2: damaged.insert(damaged[offset], at: offset)
                    default: damaged.remove(at: offset)
                    }
                    let (fast, general) = bothScans(damaged)
                    #expect(fast == nil || fast == general, "\(String(decoding: damaged, as: UTF8.self))")
                }
            }
        }
    }
}
