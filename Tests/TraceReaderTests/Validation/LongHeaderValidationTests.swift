import TestSupport
import Testing

@testable import TraceReader

/// Validation of a long header (2,000 machines, 2 MB): the machines are checked and used, and a
/// wrong one anywhere, near the start or the end, is `not-a-trace`.
@Suite struct LongHeaderValidationTests {
    static func trace(wrongAt wrong: Int?) -> [UInt8] {
        var machines: [String] = []
        for index in 0..<2000 {
            var cases = (0..<40).map { #""c\#($0)":["c\#(($0 + 1 + index % 2) % 40)"]"# }
            if index == wrong { cases[5] = #""c5":["c40"]"# }
            machines.append(#""S\#(index)":{"initial":"c0","transitions":{\#(cases.joined(separator: ","))}}"#)
        }
        let header =
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{\#(machines.joined(separator: ","))}}"#
        let events = [
            #"{"type":"register","seq":1,"store":"S1901","case":"c0","state":0}"#,
            #"{"type":"transition","seq":2,"store":"S1901","action":"go","from":"c0","to":"c1","changed":true,"state":1}"#,
            #"{"type":"transition","seq":3,"store":"S1901","action":"go","from":"c1","to":"c3","changed":true,"state":2}"#,
        ]
        return Array(([header] + events).joined(separator: "\n").utf8) + [0x0A]
    }

    @Test func theMachinesOfALongHeaderAreCheckedAndUsed() throws {
        let bytes = Self.trace(wrongAt: nil)
        #expect(bytes.count > 1 << 20)
        let file = try ValidationTemporaryFile(bytes)
        let report = try TraceValidator().validate(file: file.path)
        // S1901 (odd) may go c0 → c2, c1 → c3: the first step (line 3) is illegal, the second allowed.
        #expect(report.problems.map(\.kind) == [.illegal], "\(report.problems)")
        #expect(report.problems.map(\.line) == [3])
        for wrong in [3, 1950] {
            let wrongFile = try ValidationTemporaryFile(Self.trace(wrongAt: wrong))
            let wrongReport = try TraceValidator().validate(file: wrongFile.path)
            #expect(wrongReport.problems.map(\.kind) == [.notATrace], "\(wrongReport.problems)")
            #expect(wrongReport.problems.first?.message.contains("S\(wrong)") == true, "\(wrongReport.problems)")
        }
    }
}
