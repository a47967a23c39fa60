import Foundation
import TestSupport
import Testing

@testable import TraceReader

/// `EventScanner`'s block scanner (64 bytes at a time) gives exactly what the general scan gives,
/// takes the common lines, and leaves every line it does not read, valid or not, to the byte
/// scans; its escape masks are those of a byte-by-byte reading, across blocks.
@Suite struct BlockScannerTests {
    private func bothScans(_ line: [UInt8]) -> (blocks: EventFields?, general: EventFields?) {
        line.withUnsafeBytes { bytes in
            (EventScanner.scanByBlocks(bytes), try? EventScanner.scanGenerally(bytes))
        }
    }

    /// Expects agreement; returns whether the block scanner read the line.
    @discardableResult
    private func expectAgreement(_ line: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let (blocks, general) = bothScans(line)
        guard let blocks else { return false }
        #expect(blocks == general, "\(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
        return true
    }

    private static let recorderLine =
        #"{"type":"transition","seq":12,"elapsed":0.0021,"store":"CatalogStore","action":"toLoading","from":"idle","to":"loading","changed":true,"state":{"phase":"loading","page":3,"query":"swift","tags":[1,-2.5e3,true,false,null,{}],"x":[]},"source":"CatalogStore.swift:31","cause":11,"args":{"n":1},"stack":["f (A.swift:1)","g"]}"#

    @Test func readsTheRecordersLinesAndAgrees() throws {
        let lines = [
            Self.recorderLine,
            #"{"type":"register","seq":1,"elapsed":0,"store":"S","case":"a","machine":{"initial":"a","transitions":{"a":["b"],"b":[]}},"state":{"n":[1,2]}}"#,
            #"{"type":"restore","seq":4,"elapsed":2.5,"store":"S","case":"b","state":{"b":1},"step":2,"trace":"run.jsonl"}"#,
            #"{"type":"transition","seq":3,"elapsed":0.5,"store":"S","action":"a","changed":false,"patch":[{"op":"replace","path":"/n/0","value":2}],"source":"f.swift:1"}"#,
            #" { "type" : "other" , "seq" : 1.5 , "store" : null , "unknown" : [ { "a" : "b" } ] , "changed" : 3 } "#,
            #"{}"#,
        ]
        for line in lines {
            #expect(expectAgreement(Array(line.utf8)), "not read by blocks: \(line)")
        }
        let events = try ValidationFixtures.recordedTrace(seed: 5, actions: 300)
        var read = 0
        for line in events.split(separator: 0x0A).dropFirst() {
            // A `\u` escape (the fixture's notes have one) is left to the byte scans.
            let text = String(decoding: line, as: UTF8.self)
            if expectAgreement(Array(line)) {
                read += 1
            } else {
                #expect(text.contains(#"\u"#), "not read by blocks: \(text)")
            }
        }
        #expect(read > 100)
    }

    /// Strings with escaped quotes and runs of backslashes placed across the 64-byte boundaries,
    /// and lines of exactly 64 and 128 bytes.
    @Test(arguments: [0, 1, 2, 3, 4, 5, 6, 7, 8])
    func escapesAcrossBlocksAgree(backslashes: Int) {
        var read = 0
        for padding in 40..<140 {
            for tail in [#"\""#, #"x"#, #"\\"#, #"\n"#, #"\u0041"#, #"\q"#, ""] {
                let run = String(repeating: "\\", count: backslashes)
                let body = String(repeating: "a", count: padding) + run + tail
                let line = #"{"type":"t","seq":1,"store":""# + body + #"","state":{"k":""# + run + #""}}"#
                if expectAgreement(Array(line.utf8)) { read += 1 }
            }
        }
        #expect(read > 0 || backslashes % 2 == 1)
        for length in [64, 128] {
            let prefix = #"{"type":"t","seq":1,"note":""#
            let line = prefix + String(repeating: "b", count: length - prefix.utf8.count - 2) + #""}"#
            #expect(line.utf8.count == length)
            #expect(expectAgreement(Array(line.utf8)))
        }
    }

    /// Lines the block scanner leaves to the byte scans: `\r`, tabs, invalid UTF-8 and NUL bytes
    /// inside strings, non-ASCII text, `\u` escapes, deep nesting, a member written twice; and
    /// invalid lines of every kind.
    @Test func leavesUncommonAndInvalidLinesToTheByteScans() {
        let declined = [
            #"{"type":"t","seq":1}"# + "\r",
            "{\"type\":\t\"t\",\"seq\":1}",
            #"{"type":"caf"# + "\u{E9}" + #"","seq":1}"#,
            #"{"type":"\u0074","seq":1}"#,
            #"{"type":"t","seq":1,"seq":2}"#,
            #"{"type":"t","state":"# + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}",
            #"{"type":"t","seq":01}"#, #"{"type":"t","seq":1,}"#, #"{"type":"t" "seq":1}"#, #"{"type":"t","seq":1}x"#,
            #"{"type":"t","seq":1"#, #"{"type":"t,"seq":1}"#, #"["type"]"#, #"{"a":[1 2]}"#, #"{"a":{"b"}}"#,
            #"{"a":tru}"#, #"{"a":nul}"#, #"{"a":1x}"#, #"{"a":-}"#, #"{"a":[}"#, #"{"a":]}"#, #"{"a":"\"}"#,
            #"{"a":\"x"}"#, "", "   ",
        ]
        for line in declined {
            let (blocks, _) = bothScans(Array(line.utf8))
            #expect(blocks == nil, "read by blocks: \(line)")
        }
        var withBadBytes = Array(#"{"type":"tXX","seq":1}"#.utf8)
        for bad: [UInt8] in [[0xFF, 0x41], [0xC3, 0x28], [0x00, 0x41], [0x01, 0x41]] {
            withBadBytes.replaceSubrange(10..<12, with: bad)
            let (blocks, general) = bothScans(withBadBytes)
            #expect(blocks == nil && general == nil)
        }
    }

    /// Recorded lines with a byte deleted, replaced or inserted at random: wherever the block
    /// scanner still reads one, it reads what the general scan reads, and it reads no line the
    /// general scan refuses.
    @Test func agreesWithTheGeneralScanOnDamagedLines() throws {
        var random = SeededGenerator(seed: 0xB10C)
        let events = try ValidationFixtures.recordedTrace(seed: 9, actions: 100)
        let lines = events.split(separator: 0x0A).dropFirst().map(Array.init) + [Array(Self.recorderLine.utf8)]
        let bytes: [UInt8] =
            Array(#"{}[],:"\ 0123456789.eE+-tfnulrsaxyz"#.utf8) + [0x00, 0x0A, 0x0D, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF]
        var taken = 0
        for _ in 0..<20_000 {
            var line = lines[Int.random(in: 0..<lines.count, using: &random)]
            for _ in 0...Int.random(in: 0...2, using: &random) {
                let position = Int.random(in: 0..<line.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: line.remove(at: position)
                case 1: line[position] = bytes.randomElement(using: &random)!
                default: line.insert(bytes.randomElement(using: &random)!, at: position)
                }
            }
            if expectAgreement(line) { taken += 1 }
        }
        #expect(taken > 1000)
    }

    /// `ByteBlock.escaped` marks what a byte-by-byte reading marks, block after block.
    @Test func escapeMasksMatchAByteByByteReading() {
        var random = SeededGenerator(seed: 0xE5C)
        for _ in 0..<2000 {
            let bytes = (0..<256).map { _ in Int.random(in: 0..<3, using: &random) == 0 ? UInt8(ascii: "a") : 0x5C }
            var expected = [Bool](repeating: false, count: bytes.count)
            var index = 0
            while index < bytes.count {
                if bytes[index] == 0x5C && index + 1 < bytes.count {
                    expected[index + 1] = true
                    index += 2
                } else {
                    index += 1
                }
            }
            var carry: UInt64 = 0
            for block in 0..<4 {
                var backslashes: UInt64 = 0
                for bit in 0..<64 where bytes[block * 64 + bit] == 0x5C { backslashes |= 1 << UInt64(bit) }
                let escaped = ByteBlock.escaped(backslashes, carry: &carry)
                for bit in 0..<64 {
                    #expect((escaped >> UInt64(bit)) & 1 == (expected[block * 64 + bit] ? 1 : 0))
                }
            }
        }
    }

    /// `ByteBlock` classifies as a byte-by-byte reading does.
    @Test func blockClassesMatchTheBytes() {
        var random = SeededGenerator(seed: 0xC1A)
        for _ in 0..<500 {
            let bytes = (0..<64).map { _ in UInt8.random(in: 0...255, using: &random) }
            let block = bytes.withUnsafeBytes { ByteBlock($0.baseAddress!) }
            for (bit, byte) in bytes.enumerated() {
                let has = { (mask: UInt64) in (mask >> UInt64(bit)) & 1 == 1 }
                #expect(has(block.quotes) == (byte == 0x22))
                #expect(has(block.backslashes) == (byte == 0x5C))
                #expect(has(block.spaces) == (byte == 0x20))
                #expect(has(block.operators) == Array("{}[]:,".utf8).contains(byte))
                #expect(has(block.unusual) == (byte < 0x20 || byte >= 0x80))
            }
        }
    }
}
