import Foundation
import Testing

@testable import Inspector

/// Finding a trace's `source` and stack frames in a folder tree (`SourceRoot`), and folding a
/// stack to the app's frames (`CallStackText`).
@Suite struct SourceRootTests {
    /// A repository: an app module, another module with a file of the same name, a test file of
    /// that name, a build folder's copy (hidden), and a module outside `Sources`.
    static func repository() throws -> ValidateTesting.Folder {
        let folder = try ValidateTesting.Folder()
        for path in [
            "Sources/App/Shop/Shop.swift", "Sources/Other/Shop.swift", "Tests/AppTests/Shop.swift",
            ".build/checkouts/App/Cart.swift", "Sources/App/Cart.swift", "Modules/Kit/Views/Button.swift",
            "Modules/Kit/Views/Only.swift",
        ] {
            try folder.write(path, ["// \(path)"])
        }
        return folder
    }

    @Test func aFileIDIsFoundUnderSourcesModuleFirst() throws {
        let folder = try Self.repository()
        let root = SourceRoot(path: folder.path)
        #expect(
            root.locate("App/Shop.swift:12") == SwiftLine(path: folder.path + "/Sources/App/Shop/Shop.swift", line: 12))
        #expect(
            root.locate("Other/Shop.swift:3") == SwiftLine(path: folder.path + "/Sources/Other/Shop.swift", line: 3))
        // Not under Sources: any folder named as the module.
        #expect(
            root.locate("Kit/Button.swift:7")
                == SwiftLine(path: folder.path + "/Modules/Kit/Views/Button.swift", line: 7))
        // A hidden folder's copy (.build) is never taken.
        #expect(root.locate("App/Cart.swift:1") == SwiftLine(path: folder.path + "/Sources/App/Cart.swift", line: 1))
    }

    @Test func anOldFileNameIsFoundOnlyWhenUnique() throws {
        let folder = try Self.repository()
        let root = SourceRoot(path: folder.path + "/")
        #expect(root.locate("Only.swift:5") == SwiftLine(path: folder.path + "/Modules/Kit/Views/Only.swift", line: 5))
        #expect(root.locate("Shop.swift:5") == nil)  // three files of that name
    }

    @Test func whatCannotBeFoundIsNil() throws {
        let folder = try Self.repository()
        let root = SourceRoot(path: folder.path)
        for source in [
            "Gone/Shop.swift:1", "App/Gone.swift:1", "App/Shop.swift", "App/Shop.swift:0", "App/Shop.swift:x", ":4",
        ] {
            #expect(root.locate(source) == nil, "\(source)")
        }
        #expect(SourceRoot(path: folder.path + "/nothing-here").locate("App/Shop.swift:1") == nil)
    }

    @Test func theCurrentDirectoryGivesRepositoryPaths() {
        #expect(SourceRoot(path: ".").fullPath("Sources/App/Shop.swift") == "Sources/App/Shop.swift")
        #expect(SourceRoot(path: "app/").fullPath("Sources/A.swift") == "app/Sources/A.swift")
        // This package's own sample app, as `validate` finds it when run from the repository.
        let root = SourceRoot(path: Self.packageRoot)
        #expect(
            root.locate("SampleApp/Shop.swift:97")
                == SwiftLine(path: Self.packageRoot + "/Sources/SampleApp/Shop/Shop.swift", line: 97))
    }

    @Test func theMachineDeclarationIsTheStateMachineTypeNamingEveryCase() throws {
        let folder = try ValidateTesting.Folder()
        try folder.write(
            "Sources/App/CatalogState.swift",
            [
                "import Recorder", "", "/// enum Doc: StateMachine {", "enum CatalogState: StateMachine, Equatable {",
                "    enum Case { case idle, loading }", "}",
            ])
        try folder.write("Sources/App/Other.swift", ["struct Other: StateMachine { enum Case { case on, off } }"])
        try folder.write("Tests/AppTests/Fake.swift", ["enum CatalogFake: StateMachine { case idle, loading }"])
        let root = SourceRoot(path: folder.path)
        #expect(
            root.declaration(ofMachineOf: "CatalogStore", cases: ["idle", "loading"])
                == SwiftLine(path: folder.path + "/Sources/App/CatalogState.swift", line: 4))
        #expect(root.declaration(ofMachineOf: "Switch", cases: ["on", "off"])?.line == 1)
        #expect(root.declaration(ofMachineOf: "Nope", cases: ["neverDeclared"]) == nil)
        #expect(SourceRoot.stateMachineType(declaredBy: "public enum Light: Codable, StateMachine {") == "Light")
        #expect(SourceRoot.stateMachineType(declaredBy: "enum Light: StateMachineLike {") == nil)
    }

    @Test func aStackIsFoldedToTheFramesOfTheAppsFiles() throws {
        let folder = try Self.repository()
        let stack = [
            "Shop.perform(_:) (Shop.swift:9)", "Collection.map<A, B>(_:)", "thunk", "Cart.add() (Cart.swift:2)",
            "UIApplication.run() (UIApplication.swift:40)",
        ]
        let folded = CallStackText(stack, sourceRoot: SourceRoot(path: folder.path))
        #expect(
            folded.frames == [
                "Shop.perform(_:) (Shop.swift:9)", "… 2 other frames", "Cart.add() (Cart.swift:2)", "… 1 other frame",
            ])
        #expect(folded.lines.first == "call stack:")
        // Without the app's files: every frame that names a file is taken as the app's.
        let elsewhere = CallStackText(stack, sourceRoot: SourceRoot(path: folder.path + "/empty"))
        #expect(elsewhere.frames.count == 4)
        #expect(elsewhere.frames.last == "UIApplication.run() (UIApplication.swift:40)")
        // No frame of the app at all: the stack is shown whole.
        #expect(CallStackText(["a", "b"], sourceRoot: SourceRoot(path: folder.path)).frames == ["a", "b"])
        // One line shows the first frames.
        let long = CallStackText((1...8).map { "f\($0) (Shop.swift:\($0))" }, sourceRoot: SourceRoot(path: folder.path))
        #expect(long.line.hasSuffix("f5 (Shop.swift:5) ← … 3 more"))
        #expect(CallStackText.file(of: "closure #1 in run(a:) (Scenario.swift:51)") == "Scenario.swift")
        #expect(CallStackText.file(of: "run(a:)") == nil)
    }

    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }
}
