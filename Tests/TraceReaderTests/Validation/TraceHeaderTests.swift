import Testing

@testable import Recorder
@testable import TraceReader

@Suite struct TraceHeaderTests {
    private func parse(_ text: String) throws(TraceHeaderError) -> TraceHeader {
        try Array(text.utf8).withUnsafeBytes { buffer in
            Result { () throws(TraceHeaderError) in try TraceHeader.parse(buffer) }
        }.get()
    }

    @Test func readsTheRecordersHeader() throws {
        let sink = MemorySink()
        _ = try TraceRecorder(sink: sink, app: "Shop", machines: ["Door": ValidationFixtures.Door.self])
        let header = try parse(sink.lines[0])
        #expect(header.version == 1)
        #expect(header.app == "Shop")
        #expect(header.started?.hasSuffix("Z") == true)
        #expect(header.machineOrder == ["Door"])
        #expect(header.machines["Door"] == MachineSpec(ValidationFixtures.Door.self))
    }

    @Test func keepsTheMachinesOrderAndCases() throws {
        let header = try parse(
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{"B":{"initial":"y","transitions":{"y":["x"],"x":[]}},"A":{"initial":"p","transitions":{"p":[]},"note":"ignored"}}}"#
        )
        #expect(header.machineOrder == ["B", "A"])
        #expect(header.machines["B"]?.cases == ["y", "x"])
        #expect(header.machines["B"]?.allows(from: "y", to: "x") == true)
        #expect(header.machines["B"]?.allows(from: "x", to: "y") == false)
        #expect(header.app == nil && header.started == nil)
    }

    @Test(arguments: [
        (
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{"S":{"initial":"a","transitions":{"a":[],"a":[]}}}}"#,
            #"machine "S": case "a" is a key of "transitions" twice; keep one"#
        ),
        (
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{"S":{"initial":"a","transitions":{"a":[]}},"S":{"initial":"a","transitions":{"a":[]}}}}"#,
            #"the header's "machines" lists machine "S" twice; keep one"#
        ),
        (
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{"S":{"initial":3,"transitions":{"a":[]}}}}"#,
            #"machine "S": "initial" is 3, expected a case name (a string)"#
        ),
        (
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{"S":{"initial":"a","transitions":{"a":"b"}}}}"#,
            #"machine "S": the transitions of "a" are "b", expected an array of case names ([] for a final case)"#
        ),
        (
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{"S":[]}}"#,
            #"machine "S" is an array, expected an object {"initial": CASE, "transitions": {CASE: [CASE, ...]}}"#
        ),
        (
            #"{"format":"rewind-trace","version":1,"machines":{}}"#,
            #"line 1 is not a trace header: it has no "type"; expected "type":"header""#
        ),
        (
            #"{"type":"header","format":"rewind-trace","version":1.0,"machines":{}}"#,
            #"line 1 is not a trace header: "version" is 1.0, expected the integer 1 or 2"#
        ),
    ])
    func refusesWithAMessageThatSaysWhatToChange(text: String, message: String) {
        #expect(throws: TraceHeaderError(message)) { try parse(text) }
    }

    @Test func namesWithControlCharactersAreEscapedInMessages() {
        do {
            _ = try parse(
                #"{"type":"header","format":"rewind-trace","version":1,"machines":{"S\u001b[2J":{"initial":"a","transitions":{}}}}"#
            )
            Issue.record("accepted")
        } catch {
            #expect(!error.message.unicodeScalars.contains { $0.value < 0x20 })
            #expect(
                error.message.contains(#""S\u001B[2J""#) || error.message.contains(#""S\u001b[2J""#), "\(error.message)"
            )
        }
    }
}
