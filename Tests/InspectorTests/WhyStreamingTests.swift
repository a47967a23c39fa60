import Testing

@testable import Inspector
@testable import TraceJSON
@testable import TraceQueries
@testable import TraceReader

/// `why` prints the chain as it walks it: the same lines and JSON as when it built the whole
/// chain first (columns sized from the chain's events), holding at most 500 events.
@Suite struct WhyStreamingTests {
    /// What `why` printed when it built the chain first.
    static func whyOfWholeChain(_ trace: TraceFile, seq: Int, json: Bool) throws -> String {
        let chain = try #require(CauseChain(of: seq, in: trace))
        if json {
            var object: JSONObject = [:]
            object.append(key: "seq", value: .number(String(seq)))
            object.append(key: "chain", value: .array(chain.events.map { .object(EventJSON.object($0)) }))
            let (end, cause): (String, Int?) =
                switch chain.end {
                case .origin: ("origin", nil)
                case .missingCause(let cause): ("missing-cause", cause)
                case .cycle(let cause): ("cycle", cause)
                case .unreadable(let cause): ("unreadable", cause)
                }
            object.append(key: "end", value: .string(end))
            if let cause { object.append(key: "endCause", value: .number(String(cause))) }
            return JSONPrinter.compact(.object(object), terminalSafe: true) + "\n"
        }
        let format = EventLine.fitting(chain.events, style: Style(enabled: false))
        var out = ""
        for (position, event) in chain.events.enumerated() {
            out += (position == 0 ? "  " : "← ") + format.text(event) + "\n"
        }
        return out
    }

    @Test(arguments: LogStreamingTests.traces) func chainsAreThoseOfTheWholeChain(path: String) throws {
        guard let trace = try LogStreamingTests.openOrExpectRefusal(path, ["why", path, "1"]) else { return }
        for index in 0..<trace.eventCount {
            let seq = try #require(trace.event(at: index)).seq
            let json = inspector(["why", path, "\(seq)", "--format", "json"])
            #expect(json.out == (try Self.whyOfWholeChain(trace, seq: seq, json: true)), "seq \(seq) of \(path)")
            let text = inspector(["why", path, "\(seq)"])
            #expect(text.out.hasPrefix(try Self.whyOfWholeChain(trace, seq: seq, json: false)), "seq \(seq) of \(path)")
        }
    }

    /// A chain longer than 500 events is printed whole, its columns sized by its first 500 (all
    /// alike here), each later event as soon as it is read.
    @Test func aLongChainIsPrintedWhole() throws {
        var lines = [
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{}}"#,
            #"{"type":"transition","seq":1,"store":"S","action":"a","changed":true,"state":1}"#,
        ]
        for seq in 2...1300 {
            lines.append(
                #"{"type":"transition","seq":\#(seq),"store":"S","action":"a","changed":true,"state":\#(seq),"cause":\#(seq - 1)}"#
            )
        }
        let trace = try TraceFile(bytes: Array((lines.joined(separator: "\n") + "\n").utf8))
        let console = Console.capturing()
        var printer = Why.ChainPrinter(json: false, seq: 1300, console: console)
        var printedWhenWalked: [Int] = []
        let end = CauseChain.walk(from: 1300, in: trace) { event in
            printer.add(event)
            printedWhenWalked.append(console.out.text.split(separator: "\n").count)
        }
        printer.finish(try #require(end))
        #expect(end == .origin)
        #expect(printedWhenWalked[Why.ChainPrinter.sampleEvents - 1] == Why.ChainPrinter.sampleEvents)
        for (index, printed) in printedWhenWalked.enumerated() where index >= Why.ChainPrinter.sampleEvents {
            #expect(printed == index + 1)
        }
        #expect(console.out.text == (try Self.whyOfWholeChain(trace, seq: 1300, json: false)))
    }
}
