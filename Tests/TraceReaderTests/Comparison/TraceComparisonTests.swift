@_spi(RewindInternals) import RewindSupport
import Testing

@testable import TraceQueries
@testable import TraceReader

@Suite struct TraceComparisonTests {
    typealias T = ValidationTesting

    static let header = T.header(machines: #"{"Light":{"initial":"off","transitions":{"off":["on"],"on":["off"]}}}"#)

    static func register(_ seq: Int, state: String = #"{"level":0}"#) -> String {
        #"{"type":"register","seq":\#(seq),"elapsed":0.1,"store":"Light","case":"off","state":\#(state)}"#
    }

    static func turn(
        _ seq: Int, _ from: String, _ to: String, action: String = "turn", state: String, extra: String = ""
    ) -> String {
        #"{"type":"transition","seq":\#(seq),"elapsed":0.\#(seq),"store":"Light","action":"\#(action)","from":"\#(from)","to":"\#(to)","changed":true,"state":\#(state)\#(extra)}"#
    }

    static let run = [
        header, register(1), turn(2, "off", "on", state: #"{"level":3,"at":"10:00"}"#, extra: #","args":{"level":3}"#),
        turn(3, "on", "off", state: #"{"level":0,"at":"10:01"}"#),
    ]

    private func bytes(_ lines: [String]) -> [UInt8] {
        Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    private func compare(
        _ first: [String], _ second: [String], ignoring: [String] = [], window: Int = 4096
    ) throws -> TraceComparison.Result {
        var comparison = TraceComparison(ignoring: try ignoring.map(StatePathPattern.init(parsing:)))
        comparison.causeWindow = window
        return try comparison.compare(.bytes(bytes(first), name: "a"), .bytes(bytes(second), name: "b"))
    }

    @Test func whatNeverCountsDoesNotMakeADifference() throws {
        // Other seqs, times, sources, stacks and causes; members in another order; 3.0 for 3.
        let other = [
            Self.header, #"{"type":"register","seq":11,"store":"Light","case":"off","elapsed":9,"state":{"level":0}}"#,
            #"{"type":"transition","seq":12,"store":"Light","action":"turn","from":"off","to":"on","changed":true,"state":{"at":"10:00","level":3.0},"args":{"level":3},"source":"X.swift:1","stack":["f"],"cause":11}"#,
            Self.turn(13, "on", "off", state: #"{"level":0,"at":"10:01"}"#, extra: #","elapsed":5"#),
        ]
        let result = try compare(Self.run, other)
        #expect(result.difference == nil)
        #expect(result.agreeingEvents == 3)
    }

    @Test(arguments: [
        (
            "type",
            #"{"type":"restore","seq":2,"store":"Light","action":"turn","from":"off","to":"on","changed":true,"state":{"level":3,"at":"10:00"},"args":{"level":3}}"#
        ),
        (
            "store",
            #"{"type":"transition","seq":2,"store":"Lamp","action":"turn","from":"off","to":"on","changed":true,"state":{"level":3,"at":"10:00"},"args":{"level":3}}"#
        ),
        (
            "action",
            #"{"type":"transition","seq":2,"store":"Light","action":"flip","from":"off","to":"on","changed":true,"state":{"level":3,"at":"10:00"},"args":{"level":3}}"#
        ),
        (
            "from",
            #"{"type":"transition","seq":2,"store":"Light","action":"turn","from":"on","to":"on","changed":true,"state":{"level":3,"at":"10:00"},"args":{"level":3}}"#
        ),
        (
            "to",
            #"{"type":"transition","seq":2,"store":"Light","action":"turn","from":"off","to":"off","changed":true,"state":{"level":3,"at":"10:00"},"args":{"level":3}}"#
        ),
        (
            "changed",
            #"{"type":"transition","seq":2,"store":"Light","action":"turn","from":"off","to":"on","changed":false,"state":{"level":3,"at":"10:00"},"args":{"level":3}}"#
        ),
        (
            "args",
            #"{"type":"transition","seq":2,"store":"Light","action":"turn","from":"off","to":"on","changed":true,"state":{"level":3,"at":"10:00"},"args":{"level":4}}"#
        ),
        (
            "args",
            #"{"type":"transition","seq":2,"store":"Light","action":"turn","from":"off","to":"on","changed":true,"state":{"level":3,"at":"10:00"}}"#
        ),
        (
            "state",
            #"{"type":"transition","seq":2,"store":"Light","action":"turn","from":"off","to":"on","changed":true,"state":{"level":4,"at":"10:00"},"args":{"level":3}}"#
        ),
    ])
    func eachComparedMemberMakesADifference(field: String, line: String) throws {
        let other = [Self.run[0], Self.run[1], line, Self.run[3]]
        let difference = try #require(try compare(Self.run, other).difference)
        #expect(difference.position == 2)
        #expect(difference.fields.contains(field), "\(difference.fields)")
        #expect(difference.first.event?.seq == 2)
        #expect(difference.first.event?.line == 3)
        #expect(difference.first.eventCount == 2)
    }

    @Test func aRegistersCaseAndMachineCount() throws {
        let otherCase = [Self.header, #"{"type":"register","seq":1,"store":"Light","case":"on","state":{"level":0}}"#]
        #expect(try compare(Array(Self.run.prefix(2)), otherCase).difference?.fields == ["case"])
        let machine = #","machine":{"initial":"off","transitions":{"off":["on"],"on":[]}}"#
        let withMachine = [
            Self.header, #"{"type":"register","seq":1,"store":"Light","case":"off"\#(machine),"state":{"level":0}}"#,
        ]
        #expect(try compare(Array(Self.run.prefix(2)), withMachine).difference?.fields == ["machine"])
    }

    @Test func theStateDiffThereLeavesOutTheIgnoredPaths() throws {
        let other = [
            Self.run[0], Self.run[1],
            Self.turn(2, "off", "on", state: #"{"level":3,"at":"11:00"}"#, extra: #","args":{"level":3}"#),
            Self.turn(3, "on", "off", state: #"{"level":1,"at":"11:01"}"#),
        ]
        let difference = try #require(try compare(Self.run, other).difference)
        #expect(difference.position == 2)
        #expect(difference.stateDiff.changes.map(\.path.description) == ["Light.at"])
        let ignoring = try #require(try compare(Self.run, other, ignoring: ["Light.at"]).difference)
        #expect(ignoring.position == 3)
        #expect(ignoring.stateDiff.changes.map(\.path.description) == ["Light.level"])
        #expect(ignoring.report().contains("ignored: Light.at"))
        #expect(try compare(Self.run, other, ignoring: ["Light.at", "Light.level"]).difference == nil)
    }

    @Test func aWildcardIgnoresEveryElement() throws {
        let lines = #"{"lines":[{"sku":"A","addedAt":1},{"sku":"B","addedAt":2}]}"#
        let later = #"{"lines":[{"sku":"A","addedAt":7},{"sku":"B","addedAt":8}]}"#
        let first = [Self.header, Self.register(1, state: lines)]
        let second = [Self.header, Self.register(1, state: later)]
        #expect(try compare(first, second).difference?.fields == ["state"])
        #expect(try compare(first, second, ignoring: ["Light.lines[0].addedAt"]).difference != nil)
        #expect(try compare(first, second, ignoring: ["Light.lines[*].addedAt"]).difference == nil)
        #expect(try compare(first, second, ignoring: ["[*].lines[*].addedAt"]).difference == nil)
        let renamed = [
            Self.header, Self.register(1, state: #"{"lines":[{"sku":"C","addedAt":1},{"sku":"B","addedAt":2}]}"#),
        ]
        #expect(try compare(first, renamed, ignoring: ["Light.lines[*].addedAt"]).difference != nil)
    }

    @Test func aRunThatEndsFirstDiffersWhereItEnds() throws {
        let difference = try #require(try compare(Self.run, Array(Self.run.prefix(3))).difference)
        #expect(difference.position == 3)
        #expect(difference.fields == ["end"])
        #expect(difference.second.event == nil)
        #expect(difference.second.eventCount == 2)
        #expect(difference.report().contains("b        ends after 2 events"))
    }

    @Test func patchesAreAppliedSoAVersionTwoRunAgreesWithTheSameRunInWholeStates() throws {
        let patched = [
            T.header(version: 2, machines: #"{"Light":{"initial":"off","transitions":{"off":["on"],"on":["off"]}}}"#),
            Self.register(1),
            #"{"type":"transition","seq":2,"store":"Light","action":"turn","from":"off","to":"on","changed":true,"patch":[{"op":"replace","path":"/level","value":3},{"op":"add","path":"/at","value":"10:00"}],"args":{"level":3}}"#,
            #"{"type":"transition","seq":3,"store":"Light","action":"turn","from":"on","to":"off","changed":true,"patch":[{"op":"replace","path":"/level","value":0},{"op":"replace","path":"/at","value":"10:01"}]}"#,
        ]
        #expect(try compare(Self.run, patched).difference == nil)
        var broken = patched
        broken[3] =
            #"{"type":"transition","seq":3,"store":"Light","action":"turn","from":"on","to":"off","changed":true,"patch":[{"op":"remove","path":"/nothing"}]}"#
        #expect {
            try compare(Self.run, broken)
        } throws: { error in
            let error = error as? ValidationFileError
            return error?.path == "b" && error?.line == 4 && error?.message.contains("does not apply") == true
        }
    }

    /// A chain `5 ← 4 ← 2` in both runs, its last event different: the chains come from the window,
    /// and from reading the trace again when the window is too small to hold them.
    @Test(arguments: [4096, 1])
    func theCausesOfEachSideAreFound(window: Int) throws {
        func run(_ level: Int) -> [String] {
            [
                Self.header, Self.register(1), Self.turn(2, "off", "on", state: #"{"level":1}"#),
                #"{"type":"register","seq":3,"store":"Other","state":{}}"#,
                #"{"type":"transition","seq":4,"store":"Other","action":"react","changed":true,"state":{"n":1},"cause":2}"#,
                Self.turn(5, "on", "off", action: "follow", state: #"{"level":\#(level)}"#, extra: #","cause":4"#),
            ]
        }
        let difference = try #require(try compare(run(0), run(9), window: window).difference)
        #expect(difference.position == 5)
        for side in [difference.first, difference.second] {
            let chain = try #require(side.causes)
            #expect(chain.events.map(\.seq) == [5, 4, 2])
            #expect(chain.end == .origin)
            #expect(chain.events.allSatisfy { $0.state == nil })
        }
        #expect(difference.report().contains("causes in a: seq 5 Light.follow ← seq 4 Other.react ← seq 2 Light.turn"))
    }

    @Test func aCauseThatIsNotThereOrGoesRoundEndsTheChain() throws {
        func run(_ cause: Int, _ level: Int) -> [String] {
            [
                Self.header, Self.register(1),
                Self.turn(2, "off", "on", state: #"{"level":\#(level)}"#, extra: #","cause":\#(cause)"#),
            ]
        }
        let missing = try #require(try compare(run(9, 1), run(9, 2)).difference)
        #expect(missing.first.causes?.end == .missingCause(seq: 9))
        let circle = try #require(try compare(run(2, 1), run(2, 2)).difference)
        #expect(circle.first.causes?.end == .cycle(seq: 2))
    }

    @Test func whenEveryEventAgreesTheHeadersMachinesAreCompared() throws {
        let other =
            [T.header(machines: #"{"Light":{"initial":"off","transitions":{"off":["on"],"on":[]}}}"#)]
            + Self.run.dropFirst()
        let difference = try #require(try compare(Self.run, other).difference)
        #expect(difference.position == 0)
        #expect(difference.fields == ["machines"])
        #expect(difference.first.machines == ["Light"])
        #expect(
            difference.report().contains(
                "agree on every event (3), but their headers declare different machines for: Light"))
        // The same table in another order is the same machine.
        let reordered =
            [T.header(machines: #"{"Light":{"transitions":{"on":["off"],"off":["on"]},"initial":"off"}}"#)]
            + Self.run.dropFirst()
        #expect(try compare(Self.run, reordered).difference == nil)
    }

    @Test func linesThatAreNotEventsAreSkippedAndCounted() throws {
        let damaged = [Self.run[0], Self.run[1], "{broken", "", Self.run[2], Self.run[3], #"{"type":"tr"#]
        let result = try compare(Self.run, damaged)
        #expect(result.difference == nil)
        #expect(result.skippedLines == (0, 2) || (result.skippedLines.first == 0 && result.skippedLines.second == 2))
    }

    @Test func aFileThatIsNotATraceOrIsMissingIsAnError() throws {
        let folder = try ValidationTemporaryFile(Array("{\"type\":\"header\"}\n".utf8))
        let comparison = TraceComparison()
        #expect(throws: ValidationFileError.self) {
            try comparison.compare(.file(folder.path), .bytes(self.bytes(Self.run), name: "b"))
        }
        do {
            _ = try comparison.compare(.bytes(bytes(Self.run), name: "a"), .file(folder.folder + "/missing.jsonl"))
            Issue.record("a missing file was compared")
        } catch {
            #expect(error.path == folder.folder + "/missing.jsonl")
            #expect(error.message.contains("check the path"))
        }
    }

    @Test func filesAreReadAcrossBlocksWithLongLinesCarriageReturnsAndNoFinalNewline() throws {
        let long = String(repeating: "x", count: 3000)
        let lines = [
            Self.header, Self.register(1), Self.turn(2, "off", "on", state: #"{"level":3,"note":"\#(long)"}"#),
            Self.turn(3, "on", "off", state: #"{"level":0}"#),
        ]
        let file = try ValidationTemporaryFile(Array(lines.joined(separator: "\r\n").utf8))
        var cursor = LineCursor(try TraceInput.open(file.path).chunks(blockSize: 64, maximumLineLength: 2000))
        var read: [(count: Int, terminated: Bool, overlong: Bool)] = []
        while let line = try cursor.next() {
            read.append((line.bytes.count, line.isTerminated, line.isOverlong))
        }
        #expect(read.map(\.overlong) == [false, false, true, false])
        #expect(read.map(\.terminated) == [true, true, true, false])
        #expect(read[0].count == lines[0].utf8.count + 1)
        #expect(read[3].count == lines[3].utf8.count)
        // The whole file, as a comparison reads it: the same run.
        let same = try TraceComparison().compare(.file(file.path), .bytes(bytes(lines), name: "b"))
        #expect(same.difference == nil)
        #expect(same.agreeingEvents == 3)
    }
}
