import Foundation
import Testing

@testable import Inspector

@Suite struct EventLineTests {
    @Test(arguments: [
        (0.0213, "0.0213s"), (0, "0.0s"), (2, "2.0s"), (-1.5, "-1.5s"), (-0.0000001, "0.0s"),
        (999_999_999.5, "999999999.5s"), (1e9, "1000000000.0s"), (1e13, "10000000000000.0s"),
        (-1e13, "-10000000000000.0s"),
        (9.3e18, "9.3e+18s"),
        (1.7e308, "1.7e+308s"), (.infinity, "?"), (-.infinity, "?"), (.nan, "?"),
    ])
    func secondsPrintsEveryDouble(value: Double, text: String) {
        #expect(EventLine.seconds(value) == text)
    }

    /// The digits computed by arithmetic are those of the text-padding way they were computed before.
    @Test func secondsAgreeWithPaddingTheMicroseconds() {
        func padded(_ value: Double) -> String {
            let microseconds = Int((value.magnitude * 1_000_000).rounded())
            var text = String(microseconds)
            while text.count < 7 { text = "0" + text }
            var fraction = String(text.suffix(6))
            while fraction.hasSuffix("0") && fraction.count > 1 { fraction.removeLast() }
            return (value < 0 && microseconds > 0 ? "-" : "") + "\(text.dropLast(6)).\(fraction)s"
        }
        var random = SystemRandomNumberGenerator()
        let samples =
            [0, 0.000001, 0.00001, 0.1, 0.12, 1.000001, 10.5, 123.000450, -0.0000004, -3.25]
            + (0..<2000).map { _ in Double.random(in: -2000...2000, using: &random) }
            + (0..<2000).map { _ in Double(Int.random(in: -100_000_000...100_000_000, using: &random)) / 1e6 }
        for value in samples { #expect(EventLine.seconds(value) == padded(value), "\(value)") }
    }

    @Test func anOffsetHasItsSign() {
        #expect(EventLine.offset(0.5) == "+0.5s")
        #expect(EventLine.offset(-0.5) == "-0.5s")
        #expect(EventLine.offset(1e13) == "+10000000000000.0s")
    }
}

/// Elapsed times no clock gives but a trace may hold: every command that prints them ends in
/// order (they trapped with SIGILL, and the full-screen view left the terminal on the alternate
/// screen).
@Suite struct HugeNumberTests {
    static func trace(elapsed: [String], in folder: HostileFolder) throws -> String {
        var lines = [HostileInputTests.header]
        lines.append(
            #"{"type":"register","seq":1,"store":"S","case":"a","state":{"n":0},"elapsed":"# + elapsed[0] + "}")
        for (offset, value) in elapsed.dropFirst().enumerated() {
            let (from, to) = offset % 2 == 0 ? ("a", "b") : ("b", "a")
            lines.append(
                #"{"type":"transition","seq":\#(offset + 2),"store":"S","action":"go","from":"\#(from)","to":"\#(to)","changed":true,"state":{"n":\#(offset + 1)},"cause":\#(offset + 1),"elapsed":\#(value)}"#
            )
        }
        let path = folder.path("huge.jsonl")
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [["1e13", "-1e13", "1e400"], ["0", "9.3e18", "-9.3e18"], ["1.7e308", "-1.7e308", "5e-324"]])
    func everyCommandPrintsHugeElapsedTimes(elapsed: [String]) throws {
        let folder = try HostileFolder()
        let path = try Self.trace(elapsed: elapsed, in: folder)
        let commands: [([String], String)] = [
            (["log", path], ""), (["log", path, "--problems"], ""), (["stats", path], ""),
            (["stats", path, "--format", "json"], ""), (["why", path, "3"], ""),
            (["step", path], "next\nnext\nlast\n"),
            (["when", path, "S.n"], ""), (["report", path, "-o", folder.path("r.html")], ""),
        ]
        for (arguments, input) in commands {
            let run = try InspectorRun(arguments, input: input, in: folder)
            run.expectOrderlyEnd("elapsed \(elapsed)")
            #expect(run.status == 0, "\(run)")
        }
        let log = try InspectorRun(["log", path], in: folder)
        if elapsed[0] == "1e13" {
            #expect(
                log.out.contains("+10000000000000.0s") && log.out.contains("-10000000000000.0s")
                    && log.out.contains("?"), "\(log.out)")
        }
    }
}
