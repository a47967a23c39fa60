import Recorder
import TestSupport
import Testing

/// The recorder remembers the `source` text of recent call sites (`SourceCache`); every event
/// must still name its own.
@Suite struct SourceCacheTests {
    @Test func everyEventNamesItsCallSite() throws {
        let sink = MemorySink()
        let store = Store(initialState: 0, name: "Counter", recorder: try TraceRecorder(sink: sink))
        var expected: [String] = []
        // More call sites than the cache has slots, in two files, each sent more than once.
        for round in 0..<3 {
            for line in 1...40 as ClosedRange<UInt> {
                if line % 2 == 0 {
                    store.send("even", file: "App/Even.swift", line: line) { $0 += 1 }
                    expected.append("App/Even.swift:\(line)")
                } else {
                    store.send("odd", file: "Other/Odd Name.swift", line: line + UInt(round % 2)) { $0 += 1 }
                    expected.append("Other/Odd Name.swift:\(line + UInt(round % 2))")
                }
            }
        }
        let sources = sink.lines.dropFirst(2).map { line -> String in
            guard let start = line.range(of: #""source":""#)?.upperBound,
                let end = line[start...].firstIndex(of: "\"")
            else { return "(none) \(line)" }
            return String(line[start..<end])
        }
        #expect(sources == expected)
    }
}
