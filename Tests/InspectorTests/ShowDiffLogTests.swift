import CommandLineArguments
import Foundation
import Recorder
import Testing
import TraceJSON

@testable import Inspector

@Suite struct ShowCommandTests {
    @Test func stepZeroIsTheEmptyObject() throws {
        let trace = try RecordedTrace()
        let result = inspector(["show", trace.path, "0"])
        #expect(result.status == 0)
        #expect(result.out == "{}\n")
    }

    @Test func showsEveryStoreAtAStep() throws {
        let trace = try RecordedTrace()
        let result = inspector(["show", trace.path, "6"])
        #expect(result.status == 0)
        let value = try JSONParser.parse(result.out)
        #expect(
            value["CatalogStore"]?["loaded"]?["_0"] == .array([.string("Dune"), .string("Emma"), .string("Ulysses")]))
        #expect(value["CartStore"]?["items"] == .array([.string("Dune")]))
    }

    @Test func showsOneStoreOrOnePath() throws {
        let trace = try RecordedTrace()
        #expect(inspector(["show", trace.path, "3", "--store", "CatalogStore"]).out == "{\n  \"loading\": {}\n}\n")
        #expect(inspector(["show", trace.path, "7", "--path", "CartStore.items[1]"]).out == "\"Emma\"\n")
        #expect(inspector(["show", trace.path, "7", "--path", "CartStore.items.1"]).out == "\"Emma\"\n")
    }

    @Test func aStepPastTheEndIsAUsageError() throws {
        let trace = try RecordedTrace()
        let result = inspector(["show", trace.path, "99"])
        #expect(result.status == 2)
        #expect(result.err.contains("step 99 is past the end"))
        #expect(result.err.contains("last step is 7"))
    }

    @Test func anUnknownStoreNamesTheKnownOnes() throws {
        let trace = try RecordedTrace()
        let result = inspector(["show", trace.path, "3", "--store", "Nope"])
        #expect(result.status == 2)
        #expect(result.err.contains("CatalogStore"))
        #expect(result.err.contains("CartStore"))
    }

    @Test func aMissingFileIsReportedWithItsPath() {
        let result = inspector(["show", "/no/such/trace.jsonl", "1"])
        #expect(result.status == 2)
        #expect(result.err.hasPrefix("inspector: /no/such/trace.jsonl"))
    }

    @Test func aFileThatIsNotATraceNamesLineOne() throws {
        let folder = try RecordedTrace()
        let path = folder.folder.appendingPathComponent("notes.jsonl").path
        try "hello\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = inspector(["show", path, "0"])
        #expect(result.status == 2)
        #expect(result.err.hasPrefix("inspector: \(path):1:"))
    }
}

@Suite struct DiffCommandTests {
    @Test func showsWhatAStepChanged() throws {
        let trace = try RecordedTrace()
        let result = inspector(["diff", trace.path, "7"])
        #expect(result.status == 0)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("+") && $0.contains("\"Emma\"") })
        #expect(!lines.contains { $0.hasPrefix("-") })  // nothing was removed
        // An unchanged store is context at most, never marked as changed.
        #expect(!lines.contains { ($0.hasPrefix("+") || $0.hasPrefix("-")) && $0.contains("CatalogStore") })
    }

    @Test func pathsFormListsEachChange() throws {
        let trace = try RecordedTrace()
        let result = inspector(["diff", trace.path, "5", "7", "--format", "paths"])
        #expect(result.status == 0)
        let lines = result.out.split(separator: "\n")
        #expect(lines.count == 2)  // two items added, one line each
        #expect(lines.allSatisfy { $0.hasPrefix("CartStore.items[") && $0.contains("added") })
    }

    @Test func theJSONPatchTurnsOneStateIntoTheOther() throws {
        let trace = try RecordedTrace()
        for (from, to) in [(0, 7), (2, 5), (4, 6), (7, 1)] {
            let result = inspector(["diff", trace.path, String(from), String(to), "--format", "json-patch"])
            #expect(result.status == 0)
            let patch = try JSONParser.parse(result.out)
            let before = try JSONParser.parse(inspector(["show", trace.path, String(from)]).out)
            let after = try JSONParser.parse(inspector(["show", trace.path, String(to)]).out)
            #expect(try JSONPatch.apply(patch, to: before).isEquivalent(to: after))
        }
    }

    @Test func anEqualStepSaysNoChange() throws {
        let trace = try RecordedTrace()
        let result = inspector(["diff", trace.path, "4"])
        #expect(result.out == "no change between steps 3 and 4\n")
    }

    @Test func stepZeroHasNoStepBefore() throws {
        let trace = try RecordedTrace()
        let result = inspector(["diff", trace.path, "0"])
        #expect(result.status == 2)
        #expect(result.err.contains("step 0 has no step before it"))
    }
}

@Suite struct LogCommandTests {
    @Test func printsOneLinePerEvent() throws {
        let trace = try RecordedTrace()
        let result = inspector(["log", trace.path])
        #expect(result.status == 0)
        let lines = result.out.split(separator: "\n")
        #expect(lines.count == 7)
        #expect(lines[2].contains("toLoading") && lines[2].contains("idle → loading"))
        #expect(lines[3].contains("(no change)") && lines[3].contains("✖ illegal"))
    }

    @Test func filtersByStoreAndAction() throws {
        let trace = try RecordedTrace()
        #expect(inspector(["log", trace.path, "--store", "CartStore"]).out.split(separator: "\n").count == 3)
        #expect(inspector(["log", trace.path, "--action", "toLoading"]).out.split(separator: "\n").count == 2)
    }

    @Test func problemsOnlyListsTheIllegalStepWithItsMessage() throws {
        let trace = try RecordedTrace()
        let lines = inspector(["log", trace.path, "--problems"]).out.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].contains("toLoading"))
        #expect(lines[1].contains("illegal transition loading → loading"))
        // The call stack the recorder wrote with the illegal action, under its message.
        #expect(lines[2].hasPrefix("        call stack: "), "\(lines)")
    }

    @Test func stringsFromTheTraceCannotDriveTheTerminal() throws {
        let trace = try RecordedTrace()
        let path = trace.folder.appendingPathComponent("hostile.jsonl").path
        let recorder = try TraceRecorder(path: path)
        let store = Store(initialState: Cart(), name: "Evil\u{1B}]0;pwned\u{07}Store", recorder: recorder)
        store.send("add\u{1B}[2J") { $0.items.append("\u{1B}[31mred") }
        for arguments in [["log", path], ["show", path, "2"], ["diff", path, "2"]] {
            let result = inspector(arguments)
            #expect(result.status == 0)
            #expect(!result.out.contains("\u{1B}"), "\(arguments[0]) printed a raw ESC")
        }
    }
}
