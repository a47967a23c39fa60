import Foundation
@_spi(RewindInternals) import RewindSupport
import TestSupport
import Testing

@testable import Inspector
@testable import TraceReader

/// `EventLineWriter` writes a row from its line's bytes exactly as `EventLine.text` writes it
/// from the decoded event, or refuses it: compared on many generated lines, seeded.
@Suite struct EventLineWriterTests {
    /// Event lines with every member drawn from plain and awkward spellings.
    static func randomLines(seed: UInt64, count: Int) -> [String] {
        var random = SeededGenerator(seed: seed)
        func pick(_ choices: [String]) -> String { choices.randomElement(using: &random)! }
        let plainNames = ["CartStore", "S", "Plain", "Other.Store", "x", "y_z", "~!@#$%^&*()", "with space"]
        let awkwardNames = [
            "a-very-long-store-name-that-is-wider-than-the-column", "Caf\u{E9}", "\u{5E97}", #"quo\"te"#,
            #"esc\u0041ped"#, #"bell\u0007"#, "\u{1F600}", "tab\\tx",
        ]
        // Mostly plain names, so that many rows are written from bytes and compared.
        func pickName() -> String {
            Int.random(in: 0..<10, using: &random) < 9 ? pick(plainNames) : pick(awkwardNames)
        }
        let numbers = [
            "0.000137", "0", "-0", "1", "-0.5", "12.5", "1e-5", "1E3", "1.0", "999999999.9999999", "5e-7",
            "123456789012345", "1234567890123456", "0.0000004", "-0.0000004", "1000000000", "3.14159265358979",
        ]
        let arguments = [
            "{}", #"{"sku":"MUG","quantity":2}"#, #"{"a":[1,"b",true,null]}"#, #"{"a":{"b":1}}"#, #"{"a":1,"a":2}"#,
            #"{"a": 1}"#, #"{"k\u0041":1}"#, #"{"a":"caf\u00e9"}"#, #"{"a":"caf\#u{E9}"}"#,
            #"{"a":1.50,"b":-0,"c":1e5,"d":true,"e":null}"#, #"{"a":"x, y: z"}"#, #"{"a":[]}"#,
            #"{"a":[[1],[2,[3]]]}"#, #"{"":1}"#, #"{"a":"}"}"#, #"{"a":"\u001b[31m"}"#, "[1]", #""x""#,
        ]
        var lines: [String] = []
        for seq in 1...count {
            var members: [String] = []
            members.append(
                #""type":"#
                    + pick([
                        #""transition""#, #""transition""#, #""transition""#, #""register""#, #""restore""#, #""note""#,
                        #""transit\u0069on""#,
                    ]))
            members.append(#""seq":"# + pick(["\(seq)", "\(seq)", "-\(seq)", "\(seq * 1_000_003)"]))
            if Bool.random(using: &random) { members.append(#""elapsed":"# + pick(numbers)) }
            if Int.random(in: 0..<6, using: &random) > 0 {
                members.append(#""store":"# + (Int.random(in: 0..<30, using: &random) == 0 ? "7" : "\"\(pickName())\""))
            }
            if Int.random(in: 0..<20, using: &random) > 0 { members.append(#""action":""# + pickName() + "\"") }
            if Bool.random(using: &random) {
                members.append(#""from":""# + pickName() + "\"")
                if Int.random(in: 0..<4, using: &random) > 0 { members.append(#""to":""# + pickName() + "\"") }
            }
            if Bool.random(using: &random) { members.append(#""case":""# + pickName() + "\"") }
            if Int.random(in: 0..<10, using: &random) > 0 {
                members.append(#""changed":"# + pick(["true", "false", "true", "false", "true", "false", "1"]))
            }
            members.append(#""state":{"n":[1,2,{"x":"}"}]}"#)
            if Bool.random(using: &random) { members.append(#""source":""# + pickName() + ":12\"") }
            if Bool.random(using: &random) {
                members.append(#""cause":"# + pick(["1", "-3", "123456", "1", "2", "3", "1.5"]))
            }
            if Int.random(in: 0..<3, using: &random) > 0 { members.append(#""args":"# + pick(arguments)) }
            lines.append("{" + members.joined(separator: ",") + "}")
        }
        return lines
    }

    /// Every row the writer accepts is the row `EventLine.text` prints, with and without colour
    /// and an arguments column; most plain rows are accepted.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func acceptedRowsAreThoseOfEventLine(seed: UInt64) throws {
        let header = #"{"type":"header","format":"rewind-trace","version":1,"machines":{}}"#
        let text = ([header] + Self.randomLines(seed: seed, count: 400)).joined(separator: "\n") + "\n"
        var events: [TraceEvent] = []
        try TraceStream(bytes: Array(text.utf8)).forEachLine { line in
            if let event = line.event { events.append(event) }
            return true
        }
        #expect(events.count > 200)
        var formats = [
            EventLine.fitting(events, style: Style(enabled: false)),
            EventLine.fitting(events, style: Style(enabled: true)),
            EventLine.fitting(Array(events.prefix(3)), style: Style(enabled: false)),
        ]
        formats.append(EventLine(storeWidth: 5, actionWidth: 6, argsWidth: 0, style: Style(enabled: false)))
        for format in formats {
            let writer = EventLineWriter(format: format)
            var accepted = 0
            try TraceStream(bytes: Array(text.utf8)).forEachScannedLine { line in
                guard let scanned = line.event else { return true }
                var output: [UInt8] = Array("kept".utf8)
                if writer.appendLine(scanned, to: &output) {
                    accepted += 1
                    let expected = "kept" + format.text(scanned.event) + "\n"
                    #expect(String(decoding: output, as: UTF8.self) == expected, "line \(line.line)")
                } else {
                    #expect(output == Array("kept".utf8), "a refused row leaves the output as it was")
                }
                return true
            }
            #expect(accepted > 30, "too few rows were written from bytes to test anything")
        }
    }

    /// A recorder's row is written from its bytes.
    @Test func aRecordersRowIsAccepted() throws {
        let text = """
            {"type":"header","format":"rewind-trace","version":1,"machines":{}}
            {"type":"transition","seq":7,"elapsed":0.00194,"store":"CartStore","action":"catalogDidLoad","changed":false,"state":{"lines":[]},"source":"CartStore.swift:33","cause":6,"args":{"products":4}}

            """
        try TraceStream(bytes: Array(text.utf8)).forEachScannedLine { line in
            guard let scanned = line.event else { return true }
            let format = EventLine.fitting([scanned.event], style: Style(enabled: false))
            var output: [UInt8] = []
            #expect(EventLineWriter(format: format).appendLine(scanned, to: &output))
            #expect(String(decoding: output, as: UTF8.self) == format.text(scanned.event) + "\n")
            return true
        }
    }

    @Test(arguments: [
        "0.000137", "0", "-0", "1", "-0.5", "12.5", "123456789012345", "0.1", "0.3", "2.675", "9007199254.74099",
    ])
    func plainNumbersReadAsDoubleReadsThem(text: String) {
        let value = ByteView.withBytes(of: Array(text.utf8)) { EventLineWriter.plainDouble($0) }
        #expect(value.map { $0.bitPattern } == Double(text).map { $0.bitPattern })
    }

    @Test(arguments: ["1e5", "1E3", "1234567890123456", "", "-", "1.2.3"])
    func otherNumbersAreRefused(text: String) {
        #expect(ByteView.withBytes(of: Array(text.utf8)) { EventLineWriter.plainDouble($0) } == nil)
    }

    @Test func randomDecimalsReadAsDoubleReadsThem() {
        var random = SeededGenerator(seed: 21)
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...15, using: &random)
            var text = String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
            let point = Int.random(in: 0...digits, using: &random)
            if point < digits { text.insert(".", at: text.index(text.startIndex, offsetBy: max(1, point))) }
            if text.hasSuffix(".") { text.removeLast() }
            let value = ByteView.withBytes(of: Array(text.utf8)) { EventLineWriter.plainDouble($0) }
            #expect(value?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }
}

/// `EventLineWriter.offset(copying:to:)`, which copies the digits of a plain `elapsed`, writes
/// what `EventLine.offset` writes of the value `Double` reads, or refuses.
@Suite struct EventLineWriterOffsetTests {
    static func copied(_ text: String) -> String? {
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 1) { scratch in
            var output = EventLineWriter.Output(base: scratch.baseAddress!, count: 0)
            let written = ByteView.withBytes(of: Array(text.utf8)) { EventLineWriter.offset(copying: $0, to: &output) }
            guard let written else { return nil }
            #expect(written == output.count)
            return String(decoding: UnsafeRawBufferPointer(start: scratch.baseAddress!, count: written), as: UTF8.self)
        }
    }

    @Test(arguments: [
        "0", "-0", "0.000", "-0.000", "12", "-0.5", "5.50", "0.000001", "-0.000001", "999999999.999999", "7.000001",
        "0.1", "100.000100",
    ])
    func copiedOffsetsAreThoseOfEventLine(text: String) {
        #expect(Self.copied(text) == EventLine.offset(Double(text)!))
    }

    @Test(arguments: [
        "0.0000004", "1.0000005", "1000000000.5", "1e5", "1E3", "00.5", "01", "1.", ".5", "-", "", "1.2.3", "+1", "1,5",
    ])
    func otherFormsAreRefused(text: String) {
        #expect(Self.copied(text) == nil)
    }

    @Test func randomOffsetsAreThoseOfEventLine() {
        var random = SeededGenerator(seed: 7)
        var accepted = 0
        for _ in 0..<20_000 {
            let whole = String(
                Int.random(in: 0..<[10, 1_000, 1_000_000_000].randomElement(using: &random)!, using: &random))
            let decimals = Int.random(in: 0...7, using: &random)
            var text = (Bool.random(using: &random) ? "-" : "") + whole
            if decimals > 0 {
                text +=
                    "." + String((0..<decimals).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
            }
            guard let copied = Self.copied(text) else {
                #expect(decimals > 6, "\(text) refused")
                continue
            }
            accepted += 1
            #expect(copied == EventLine.offset(Double(text)!), "\(text)")
        }
        #expect(accepted > 10_000)
    }
}

/// `EventLineWriter.isPlain`, which looks at eight bytes at a time, says what a look at each
/// byte says: printable ASCII, 0x20 to 0x7E.
@Suite struct EventLineWriterPlainTextTests {
    @Test func plainTextIsEveryBytePrintableASCII() {
        var random = SeededGenerator(seed: 3)
        let awkward: [UInt8] = [0x00, 0x01, 0x1F, 0x20, 0x21, 0x7E, 0x7F, 0x80, 0x81, 0xC3, 0xFE, 0xFF]
        var plain = 0
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...40, using: &random)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0x20...0x7E, using: &random) }
            if count > 0 && Int.random(in: 0..<3, using: &random) > 0 {
                bytes[Int.random(in: 0..<count, using: &random)] = awkward.randomElement(using: &random)!
            }
            let expected = bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
            if expected { plain += 1 }
            #expect(ByteView.withBytes(of: bytes) { EventLineWriter.isPlain($0) } == expected, "\(bytes)")
        }
        #expect(plain > 1_000 && plain < 19_000)
    }
}
