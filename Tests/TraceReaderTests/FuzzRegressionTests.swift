import Foundation
import TestSupport
import Testing
import TraceJSON
import TraceQueries
import TraceReader

/// Every input in Fuzz/Regressions (each once crashed a fuzz target, or is one of the hostile
/// inputs the readers must survive) run through the same checks as the fuzz targets, so that
/// `swift test` catches a regression without a libFuzzer build. `.ci/fuzz` replays them too,
/// with AddressSanitizer.
@Suite struct FuzzRegressionTests {
    /// Fuzz/Regressions/<target>, found from this file's place in the repository.
    static func inputs(of target: String) throws -> [(name: String, bytes: [UInt8])] {
        let folder = packageRoot.appendingPathComponent("Fuzz/Regressions/\(target)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
            .sorted()
        return try names.map { ($0, Array(try Data(contentsOf: folder.appendingPathComponent($0)))) }
    }

    @Test func jsonParserAndSyntaxCheckAgree() throws {
        let inputs = try Self.inputs(of: "json")
        #expect(!inputs.isEmpty)
        for (name, bytes) in inputs {
            let value = try? JSONParser.parse(bytes)
            let syntaxError = bytes.withUnsafeBytes { JSONSyntax.validate($0) }
            #expect((value == nil) == (syntaxError != nil), "\(name)")
            if let value {
                let compact = JSONPrinter.compact(value)
                #expect(try JSONParser.parse(compact).isEquivalent(to: value), "\(name)")
                #expect(try JSONPrinter.compact(JSONText(validating: bytes)) == compact, "\(name)")
            }
        }
    }

    @Test func traceReaderAndValidatorAgree() throws {
        let inputs = try Self.inputs(of: "trace")
        #expect(!inputs.isEmpty)
        for (name, bytes) in inputs {
            let report = TraceValidator().validate(bytes: bytes, file: name)
            #expect(report.errors + report.warnings == report.problems.count + report.omitted, "\(name)")
            guard let trace = try? TraceFile(bytes: bytes, name: name) else {
                #expect(report.isFatal, "\(name): the reader refuses what the validator reads")
                continue
            }
            #expect(!report.isFatal, "\(name)")
            #expect(trace.eventCount == report.events, "\(name)")
            // Every step of a short trace; around the ends of one whose seqs are far apart.
            let last = trace.lastStep
            let steps =
                last <= 10_000 ? Array(0...(last + 1)) : [0, 1, last / 2, last, last == Int.max ? last : last + 1]
            for step in steps { _ = trace.appState(atStep: step) }
        }
    }

    @Test func diffsPrintAtAnyWidthAndPatchesApply() throws {
        let inputs = try Self.inputs(of: "state")
        #expect(!inputs.isEmpty)
        for (name, bytes) in inputs {
            let cut = bytes.firstIndex(of: 0) ?? bytes.count / 2
            guard let before = try? JSONParser.parse(bytes[..<cut]),
                let after = try? JSONParser.parse(bytes[min(bytes.count, cut + 1)...])
            else { continue }
            let diff = StateDiff(from: before, to: after)
            for width in [1, 2, 10, 80] {
                let paths = StateDiffPrinter(width: width).paths(diff)
                #expect(paths.isEmpty == diff.isEmpty, "\(name), width \(width)")
                _ = StateDiffPrinter(width: width).text(diff)
            }
            #expect(try JSONPatch.apply(JSONPatch.make(diff), to: before).isEquivalent(to: after), "\(name)")
            let fromTexts = StateDiff(
                from: try JSONText(validating: bytes[..<cut]),
                to: try JSONText(validating: bytes[min(bytes.count, cut + 1)...]))
            #expect(JSONPatch.text(fromTexts) == JSONPrinter.compact(JSONPatch.make(diff)), "\(name)")
        }
    }
}
