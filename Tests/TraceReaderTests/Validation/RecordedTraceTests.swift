import TestSupport
import Testing

@testable import Recorder
@testable import TraceReader

/// Traces that the tests did not write: recorded by the real `TraceRecorder`, then mutated at
/// random, validated, and compared with `ReferenceChecker`'s reading of the format's rules.
@Suite struct RecordedTraceTests {
    typealias Found = ValidationTesting.Found

    @Test func aRecordedTraceHasOnlyItsIllegalTransitions() throws {
        let bytes = try ValidationFixtures.recordedTrace(seed: 1)
        let report = TraceValidator().validate(bytes: bytes)
        let expected = ReferenceChecker.problems(bytes)
        #expect(report.problems.map(Found.init) == expected)
        // The recorder writes only valid events: its only problems are the illegal actions it recorded.
        #expect(!expected.isEmpty)
        #expect(report.problems.allSatisfy { $0.kind == .illegal })
        #expect(report.events == bytes.filter { $0 == 0x0A }.count - 1)
    }

    @Test(arguments: 0..<12)
    func mutatedRecordedTracesAgreeWithTheReference(batch: Int) throws {
        for index in 0..<25 {
            let seed = UInt64(batch * 25 + index)
            var random = SeededGenerator(seed: seed &* 7919)
            let original = try ValidationFixtures.mutationOriginal(seed: seed)
            let mutated = mutate(original, using: &random)
            let report = TraceValidator().validate(bytes: mutated)
            let expected = ReferenceChecker.problems(mutated)
            #expect(
                report.problems.map(Found.init) == expected,
                "seed \(seed):\n\(String(decoding: mutated, as: UTF8.self))")
            #expect(report.errors == expected.filter { $0.kind != .truncated }.count)
        }
    }

    @Test func theMutationsShowEveryKindOfProblemButNotATrace() throws {
        var kinds: Set<ProblemKind> = []
        for seed in UInt64(0)..<300 {
            var random = SeededGenerator(seed: seed &* 7919)
            let mutated = mutate(try ValidationFixtures.mutationOriginal(seed: seed), using: &random)
            kinds.formUnion(TraceValidator().validate(bytes: mutated).problems.map(\.kind))
        }
        // A version 1 trace of a recorder without rules: none of the kinds of patches, rules or
        // machine-less cases (`GeneratedTraceTests` shows those).
        let later: Set<ProblemKind> = [.unchecked, .overdue, .unresolved, .badPatch]
        #expect(kinds == Set(ProblemKind.allCases).subtracting([.notATrace, .causeLoop]).subtracting(later))
    }

    @Test func theParallelScanAgreesWithTheSequentialOne() throws {
        var random = SeededGenerator(seed: 99)
        var bytes = try ValidationFixtures.recordedTrace(seed: 5, actions: 300)
        for _ in 0..<3 { bytes = mutate(bytes, using: &random) }
        let folder = try ValidationTemporaryFile(bytes)
        var parallel = TraceValidator()
        parallel.parallelism = 3
        parallel.parallelThreshold = 0
        parallel.blockSize = 700  // a few lines per part, lines across blocks
        let sequential = TraceValidator().validate(bytes: bytes, file: folder.path)
        let fromFile = try parallel.validate(file: folder.path)
        #expect(fromFile == sequential)
        #expect(fromFile.problems.map(Found.init) == ReferenceChecker.problems(bytes))
    }

    /// A run that stops at its first line (not a trace) stops the scanning threads too, and says
    /// exactly what the sequential run says.
    @Test func theParallelScanStopsWhereTheSequentialOneStops() throws {
        var bytes = Array(#"{"type":"nonsense"}"#.utf8) + [0x0A]
        bytes += try ValidationFixtures.recordedTrace(seed: 8, actions: 300)
        let folder = try ValidationTemporaryFile(bytes)
        var parallel = TraceValidator()
        parallel.parallelism = 2
        parallel.parallelThreshold = 0
        parallel.blockSize = 4096
        let fromFile = try parallel.validate(file: folder.path)
        #expect(fromFile == TraceValidator().validate(bytes: bytes, file: folder.path))
        #expect(fromFile.problems.map(\.kind) == [.notATrace])
    }

    /// One to three random changes: lines dropped, repeated, swapped, emptied, cut, corrupted,
    /// or given another case.
    private func mutate(_ bytes: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if lines.last?.isEmpty == true { lines.removeLast() }
        var terminated = true
        for _ in 0..<Int.random(in: 1...3, using: &random) where lines.count > 2 {
            let at = Int.random(in: 1..<lines.count, using: &random)
            switch Int.random(in: 0..<9, using: &random) {
            case 0: lines.remove(at: at)
            case 1: lines.insert(lines[at], at: at)
            case 2: lines.swapAt(at, Int.random(in: 1..<lines.count, using: &random))
            case 3: lines.insert([], at: at)
            case 4:
                lines[lines.count - 1] = Array(
                    lines[lines.count - 1].prefix(Int.random(in: 0..<lines[lines.count - 1].count, using: &random)))
                terminated = Bool.random(using: &random)
            case 5:
                lines[at][Int.random(in: 0..<lines[at].count, using: &random)] = [
                    UInt8(ascii: "}"), UInt8(ascii: "\""), 0x07, 0xFF,
                ].randomElement(using: &random)!
            case 6:
                lines[at] = replace(
                    lines[at], #""to":""#, with: #""to":"open"# + ["", "x"].randomElement(using: &random)!)
            case 7: lines[at] = replace(lines[at], #""from":""#, with: #""from":"locked"#)
            default:
                lines[at] = replace(
                    lines[at], #","seq":"#, with: #","seq":"# + String(Int.random(in: 0...9, using: &random)))
            }
        }
        var result = lines.joined(separator: [0x0A]).map { $0 }
        if terminated { result.append(0x0A) }
        return result
    }

    /// `line` with the first occurrence of `target` replaced (what follows it is kept).
    private func replace(_ line: [UInt8], _ target: String, with replacement: String) -> [UInt8] {
        let target = Array(target.utf8)
        guard line.count >= target.count else { return line }
        for start in 0...(line.count - target.count) where Array(line[start..<(start + target.count)]) == target {
            return Array(line[..<start]) + Array(replacement.utf8) + Array(line[(start + target.count)...])
        }
        return line
    }
}
