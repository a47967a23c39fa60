import Testing

@testable import TraceJSON
@testable import TraceQueries
@testable import TraceReader

/// `ValueHistory` cuts a store's events into parts for its threads; in a version 2 trace a part
/// starts just after a whole state, so that the value before it is read at once instead of
/// walking back over every patch before it (quadratic on 80,000 patches after one whole state).
@Suite struct ValueHistoryPartTests {
    /// A version 2 trace of store S: a register, then `patches` patches, with a whole state
    /// again after each `wholeEvery` patches (nil: never).
    func trace(patches: Int, wholeEvery: Int?) throws -> TraceFile {
        var lines = [
            #"{"type":"header","format":"rewind-trace","version":2,"app":"A","machines":{}}"#,
            #"{"type":"register","seq":1,"store":"S","state":{"n":0}}"#,
        ]
        for seq in 2...(patches + 1) {
            if let wholeEvery, (seq - 1) % wholeEvery == 0 {
                lines.append(
                    #"{"type":"transition","seq":\#(seq),"store":"S","action":"go","changed":true,"state":{"n":\#(seq)}}"#
                )
            } else {
                lines.append(
                    #"{"type":"transition","seq":\#(seq),"store":"S","action":"go","changed":true,"patch":[{"op":"replace","path":"/n","value":\#(seq)}]}"#
                )
            }
        }
        return try TraceFile(bytes: Array(lines.joined(separator: "\n").utf8) + [10])
    }

    @Test func patchesAfterOneWholeStateAreWalkedInOnePart() throws {
        let history = try ValueHistory(trace: trace(patches: 1000, wholeEvery: nil), path: StatePath(parsing: "S.n"))
        #expect(history.parts(of: 0..<1001, size: 100) == [0..<1, 1..<1001])  // after the register
        #expect(history.changes().count == 1001)
    }

    @Test func partsStartJustAfterWholeStates() throws {
        let history = try ValueHistory(trace: trace(patches: 1000, wholeEvery: 250), path: StatePath(parsing: "S.n"))
        // Whole states at positions 0 (the register), 250, 500, 750, 1000.
        #expect(history.parts(of: 0..<1001, size: 300) == [0..<251, 251..<501, 501..<751, 751..<1001])
        #expect(history.changes().count == 1001)
    }
}
