import Foundation
@_spi(RewindInternals) import RewindSupport
import TestSupport
import Testing

@testable import TraceReader

/// `TraceSource.Window` gives each line as `withLine(ofEvent:)` reads it, going forward (as
/// `ValueHistory.forEachChange` reads) or back, through windows smaller and larger than a line.
@Suite struct TraceSourceWindowTests {
    typealias F = ReaderFixture

    @Test(arguments: [(64, true), (64, false), (700, true), (700, false), (1 << 20, true)] as [(Int, Bool)])
    func aWindowGivesEveryLineAsItIs(size: Int, forward: Bool) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("window.jsonl")
        var random = SeededGenerator(seed: UInt64(size))
        let lines =
            [F.header(), F.register(1, "S", state: "0")]
            + (2...400).map { seq in
                let filler = String(repeating: "x", count: Int.random(in: 0..<300, using: &random))
                return F.transition(seq, "S", state: "\"\(filler)\"")
            }
        try F.text(lines).write(toFile: path, atomically: false, encoding: .utf8)
        let trace = try TraceFile(path: path)
        var window = TraceSource.Window(size: size, forward: forward)
        let order = forward ? Array(0..<trace.eventCount) : Array((0..<trace.eventCount).reversed())
        for index in order + [3, 200, 7] {
            let direct: [UInt8]? = trace.withLine(ofEvent: index) { $0.array }
            let windowed: [UInt8]? = window.withLine(
                in: trace.source, at: trace.index.offsets[index], limit: trace.index.lineLimit(of: index)
            ) { $0.array }
            #expect(windowed != nil && windowed == direct, "event \(index)")
        }
    }
}
