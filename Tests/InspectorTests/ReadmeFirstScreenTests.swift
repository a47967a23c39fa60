import Foundation
import TestSupport
import Testing

@testable import Inspector

/// The README's first screen promises a command that opens a recorded run at its illegal step:
/// re-recording the sample app's traces moves steps, so the promise is checked, not trusted.
@Suite struct ReadmeFirstScreenTests {
    @Test func theFirstCommandOpensTheIllegalStep() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let line = try #require(
            readme.split(separator: "\n").first { $0.hasPrefix("swift run inspector step ") },
            "the README's first screen has no `swift run inspector step` command")
        let words = line.split(separator: "#")[0].split(separator: " ").dropFirst(3).map(String.init)
        #expect(words.first == "step")
        let arguments = words.map { $0.hasSuffix(".jsonl") ? packageRoot.appendingPathComponent($0).path : $0 }
        let result = inspector(arguments)
        #expect(result.status == 0, "\(result.err)")
        let first = result.out.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.contains("✖ illegal"), "the README's first command shows: \(first)")
    }
}
