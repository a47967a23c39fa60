import Foundation
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
                if writer.append(scanned, to: &output) {
                    accepted += 1
                    let expected = "kept" + format.text(scanned.event)
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
            #expect(EventLineWriter(format: format).append(scanned, to: &output))
            #expect(String(decoding: output, as: UTF8.self) == format.text(scanned.event))
            return true
        }
    }

    @Test(arguments: [
        "0.000137", "0", "-0", "1", "-0.5", "12.5", "123456789012345", "0.1", "0.3", "2.675", "9007199254.74099",
    ])
    func plainNumbersReadAsDoubleReadsThem(text: String) {
        let value = Array(text.utf8).withUnsafeBytes { EventLineWriter.plainDouble($0) }
        #expect(value.map { $0.bitPattern } == Double(text).map { $0.bitPattern })
    }

    @Test(arguments: ["1e5", "1E3", "1234567890123456", "", "-", "1.2.3"])
    func otherNumbersAreRefused(text: String) {
        #expect(Array(text.utf8).withUnsafeBytes { EventLineWriter.plainDouble($0) } == nil)
    }

    @Test func randomDecimalsReadAsDoubleReadsThem() {
        var random = SeededGenerator(seed: 21)
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...15, using: &random)
            var text = String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
            let point = Int.random(in: 0...digits, using: &random)
            if point < digits { text.insert(".", at: text.index(text.startIndex, offsetBy: max(1, point))) }
            if text.hasSuffix(".") { text.removeLast() }
            let value = Array(text.utf8).withUnsafeBytes { EventLineWriter.plainDouble($0) }
            #expect(value?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }
}
