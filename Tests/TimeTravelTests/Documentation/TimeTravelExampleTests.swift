import Foundation
import TestSupport
import Testing

/// README.md and the TimeTravel DocC catalog show `timeTravelExample`'s code as it is compiled.
@Suite struct TimeTravelExampleTests {
    static let root = packageRoot

    /// The example's lines, from its first to `// End of example`, less the function's indentation.
    static func example() throws -> String {
        let source = try String(
            contentsOf: root.appendingPathComponent("Tests/TimeTravelTests/Documentation/TimeTravelExample.swift"),
            encoding: .utf8)
        let body = source.components(separatedBy: "throws {\n")[1].components(separatedBy: "    // End of example")[0]
        return body.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("    ") ? $0.dropFirst(4) : $0 }.joined(separator: "\n")
    }

    @Test(arguments: ["README.md", "Sources/TimeTravel/Documentation.docc/TimeTravel.md"])
    func theDocumentShowsTheCompiledCode(_ document: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
        let example = try Self.example()
        #expect(example.contains("ControlChannel("))
        #expect(
            text.contains("```swift\n\(example)```\n"),
            "\(document) does not show the code of TimeTravelExample.swift as it is; copy it there:\n\(example)")
    }

    /// The TimeTravel catalog's "Restoring an @Observable model" shows the model that
    /// `ObservableModelRestoreTests` restores, as it is compiled.
    @Test func theCatalogShowsTheObservableModelAsItIsCompiled() throws {
        let source = try String(
            contentsOf: Self.root.appendingPathComponent(
                "Tests/TimeTravelTests/Restore/ObservableModelRestoreTests.swift"),
            encoding: .utf8)
        let example = source.components(separatedBy: "// Example: an @Observable model\n")[1]
            .components(separatedBy: "// End of example")[0]
        #expect(example.contains("RestorableStore(recording)"))
        let catalog = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/TimeTravel/Documentation.docc/TimeTravel.md"),
            encoding: .utf8)
        #expect(
            catalog.contains("```swift\n\(example)```\n"),
            "TimeTravel.md does not show the model of ObservableModelRestoreTests.swift as it is; copy it there:\n\(example)"
        )
    }
}
