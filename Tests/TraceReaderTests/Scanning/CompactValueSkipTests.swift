@_spi(RewindInternals) import RewindSupport
import TestSupport
import Testing

@testable import TraceJSON
@testable import TraceReader

/// The fast path's compact skip of a value must end where `JSONSyntax.skipValue` ends whenever
/// it takes the value, take only valid values, and never read past the bytes it is given.
@Suite struct CompactValueSkipTests {
    /// What the compact skip says of `bytes` (a value at offset 0): its end, or nil when it gives up.
    private func compactEnd(_ bytes: [UInt8]) -> Int? {
        // An exactly sized copy: a read past the end is a read past the allocation.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        defer { buffer.deallocate() }
        buffer.copyBytes(from: bytes)
        var cursor = EventScanner.Cursor(ByteView(UnsafeRawBufferPointer(buffer)))
        let taken = cursor.skipCompactValue()
        // The form the line scan calls, with a cursor of its own, says the same.
        let end = EventScanner.Cursor.compactValueEnd(in: ByteView(UnsafeRawBufferPointer(buffer)), at: 0)
        #expect(end == (taken ? cursor.position : nil))
        return end
    }

    private func generalEnd(_ bytes: [UInt8]) -> Int? {
        ByteView.withBytes(of: bytes) { try? JSONSyntax.skipValue(in: $0, at: 0) }
    }

    /// Checks the contract on `bytes`, and returns whether the compact skip took them.
    @discardableResult
    private func agree(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let end = compactEnd(bytes) else { return false }
        #expect(
            generalEnd(bytes) == end, "\(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
        return true
    }

    @Test func takesTheValuesTheRecorderWrites() {
        let values = [
            #"{"skus":["SKU-1","SKU-42","SKU-3"],"total":665.99,"note":"gift wrap, please"}"#,
            #"{"phase":"loading","page":332,"query":"swift"}"#,
            #"{"a":[1,-2,0.5,1e3,-0.0e-7,2E+2],"b":true,"c":false,"d":null,"e":{},"f":[],"g":[[{}]]}"#,
            #"{"k":"\u00e9\n\"\\\/","é":"ü 日本"}"#,
            #"[]"#, #"{}"#, #""""#, #""x""#, "0", "-1.25e+10", "true", "false", "null",
            #"{"initial":"idle","transitions":{"idle":["loading"],"loading":["loaded","failed"]}}"#,
        ]
        for value in values {
            let bytes = Array(value.utf8)
            #expect(compactEnd(bytes) == bytes.count, "\(value)")
            #expect(generalEnd(bytes) == bytes.count, "\(value)")
            // Followed by what comes after a `state` in a line.
            let line = bytes + Array(#","source":"f.swift:1"}"#.utf8)
            #expect(compactEnd(line) == bytes.count, "\(value)")
        }
    }

    @Test func leavesWhitespaceDeepNestingAndInvalidValuesToTheGeneralSkip() {
        let values = [
            #"{ "a":1}"#, #"{"a": 1}"#, #"[1 ,2]"#, "[1,\n2]",  // whitespace, valid
            String(repeating: "[", count: 65) + String(repeating: "]", count: 65),  // valid, deep
            #"{"a":1,}"#, #"[1,]"#, #"{"a"}"#, #"{"a":}"#, #"{1:2}"#, #"[01]"#, #"[1.]"#, #"[.5]"#, #"[-]"#,
            #"[1e]"#, #"[+1]"#, #"[tru]"#, #"[trux]"#, #"[nul]"#, #"[fals]"#, #"["a\x"]"#, "[\"a\u{01}\"]",
            #"["\u12"]"#, #"{"a":1"#, #"[1"#, #"["abc"#, "truex", "nullx", "1x",
        ]
        for value in values {
            #expect(compactEnd(Array(value.utf8)) == nil, "\(value)")
        }
        // Invalid UTF-8 in a string: a truncated sequence, a lone continuation byte, 0xFF.
        for bytes: [UInt8] in [[0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D], [0x22, 0x80, 0x22], [0x22, 0xFF, 0x22]] {
            #expect(compactEnd(bytes) == nil)
            #expect(generalEnd(bytes) == nil)
        }
        // Exactly 64 open containers are still compact; 65 are not.
        let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(compactEnd(Array(deepest.utf8)) == 128)
    }

    /// Strings whose escapes, backslash runs and closing quotes fall on every offset around the
    /// 8-byte steps of the plain-ASCII skip, at the end of the bytes or before more of a line.
    @Test func stringsAgreeAcrossEveryWordBoundary() {
        let pieces = [#"\\"#, #"\""#, #"\\\""#, #"\\\\"#, #"\u00e9"#, "é", "日", #"\n"#, "\\", "\u{01}", "\""]
        var taken = 0
        for prefix in 0..<18 {
            for piece in pieces {
                for suffix in 0..<10 {
                    let body = String(repeating: "a", count: prefix) + piece + String(repeating: "b", count: suffix)
                    for value in ["\"\(body)\"", "[\"\(body)\"]", "{\"\(body)\":1}", "[\"\(body)"] {
                        for tail in ["", ",\"source\":\"s\"}", "}"] {
                            if agree(Array((value + tail).utf8)) { taken += 1 }
                        }
                    }
                }
            }
        }
        #expect(taken > 5000)
    }

    /// Every prefix of recorded values (a value cut by the end of the buffer), and random values
    /// with a byte deleted, replaced or inserted: wherever the compact skip takes one, it agrees.
    @Test func agreesWithTheGeneralSkipOnCutAndDamagedValues() {
        var random = SeededGenerator(seed: 0xC0_4A_C7)
        let alphabet: [UInt8] =
            Array(#"{}[],:"\ 0123456789.eE+-tfnulrsa/u"#.utf8) + [0x00, 0x0A, 0x1F, 0x7F, 0xC3, 0xA9, 0xE6, 0xFF]
        var taken = 0
        var damagedTaken = 0
        for _ in 0..<4000 {
            let value = Array(Self.randomValue(depth: 0, using: &random).utf8)
            #expect(compactEnd(value) == value.count, "\(String(decoding: value, as: UTF8.self))")
            for end in 0..<value.count where agree(Array(value[..<end])) { taken += 1 }
            for _ in 0..<4 {
                var damaged = value
                let position = Int.random(in: 0..<damaged.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: damaged.remove(at: position)
                case 1: damaged[position] = alphabet.randomElement(using: &random)!
                default: damaged.insert(alphabet.randomElement(using: &random)!, at: position)
                }
                if agree(damaged) { damagedTaken += 1 }
            }
        }
        #expect(taken > 1000)
        #expect(damagedTaken > 1000)
    }

    /// A random compact JSON value: the recorder's kinds of state, with escapes and UTF-8.
    private static func randomValue(depth: Int, using random: inout SeededGenerator) -> String {
        let kind = Int.random(in: 0..<(depth < 4 ? 9 : 6), using: &random)
        switch kind {
        case 0: return ["true", "false", "null"].randomElement(using: &random)!
        case 1, 2:
            let numbers = ["0", "-0", "7", "-12", "3.25", "1e9", "-2.5E-3", "1234567890123", "0.000383", "6e+1"]
            return numbers.randomElement(using: &random)!
        case 3, 4, 5: return randomString(using: &random)
        case 6:
            let count = Int.random(in: 0..<4, using: &random)
            let elements = (0..<count).map { _ in randomValue(depth: depth + 1, using: &random) }
            return "[" + elements.joined(separator: ",") + "]"
        default:
            let count = Int.random(in: 0..<4, using: &random)
            let members = (0..<count).map { _ in
                randomString(using: &random) + ":" + randomValue(depth: depth + 1, using: &random)
            }
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    private static func randomString(using random: inout SeededGenerator) -> String {
        let pieces = ["a", "SKU-", "gift wrap", #"\""#, #"\\"#, #"\n"#, #"\u00e9"#, "é", "日本", "/", "xyzxyzxyz"]
        let count = Int.random(in: 0..<5, using: &random)
        return "\"" + (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined() + "\""
    }
}
