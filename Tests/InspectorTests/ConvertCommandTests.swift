import Foundation
import Testing
import TraceReader

@testable import Inspector

/// `inspector convert` (the engine's own tests are `TraceConverterTests`).
@Suite struct ConvertCommandTests {
    @Test func convertsToTheOtherVersionAndBack() throws {
        let twins = try TwinTraces()
        let patched = twins.folder.appendingPathComponent("patched.jsonl").path
        let result = inspector(["convert", twins.whole, "-o", patched])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.hasPrefix("wrote \(patched): version 2, 9 events, "))
        let v2 = try TraceFile(path: patched)
        #expect(v2.header.version == 2)
        let back = inspector(["convert", patched])
        #expect(back.status == 0)
        #expect(back.out.hasPrefix(#"{"type":"header","format":"rewind-trace","version":1,"#))
        #expect(!back.out.contains("\"patch\""))
        let v1 = try TraceFile(bytes: Array(back.out.utf8))
        let original = try TraceFile(path: twins.whole)
        for step in 0...original.lastStep {
            #expect(v1.appState(atStep: step) == original.appState(atStep: step), "step \(step)")
            #expect(v2.appState(atStep: step) == original.appState(atStep: step), "step \(step)")
        }
        // The trace's permissions, as a report gets them.
        let mode = try FileManager.default.attributesOfItem(atPath: patched)[.posixPermissions] as? Int
        #expect(mode == (try FileManager.default.attributesOfItem(atPath: twins.whole)[.posixPermissions] as? Int))
    }

    @Test func toOneOfAVersionOneTraceWritesItAgainWithWholeStates() throws {
        let twins = try TwinTraces()
        let result = inspector(["convert", twins.whole, "--to", "1", "-o", "-"])
        #expect(result.status == 0)
        #expect(result.out == (try String(contentsOfFile: twins.whole, encoding: .utf8)))
    }

    @Test func theCommandLineIsChecked() throws {
        let twins = try TwinTraces()
        #expect(inspector(["convert", twins.whole, "--to", "3"]).status == 2)
        let same = inspector(["convert", twins.whole, "-o", twins.whole])
        #expect(same.status == 2)
        #expect(same.err.contains("would replace the trace"))
        let link = twins.folder.appendingPathComponent("link.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: twins.patched)
        let linked = inspector(["convert", twins.whole, "-o", link])
        #expect(linked.status == 2)
        #expect(linked.err.contains("is a symbolic link"))
        let directory = inspector(["convert", twins.whole, "-o", twins.folder.path])
        #expect(directory.err.contains("is a directory; give -o the path of a .jsonl file"))
        let help = inspector(["convert", "--help"])
        #expect(help.out.contains("Exit status:") && help.out.contains("--to 1|2"))
        #expect(inspector(["--help"]).out.contains("convert"))
    }

    @Test func aPatchThatDoesNotApplyStopsItAndLeavesNoFile() throws {
        let twins = try TwinTraces()
        var lines = try String(contentsOfFile: twins.patched, encoding: .utf8).split(separator: "\n").map(String.init)
        lines[7] = lines[7].replacingOccurrences(of: #""total":0}"#, with: #""total":3}"#)
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: twins.patched))
        let output = twins.folder.appendingPathComponent("whole.jsonl").path
        let convert = inspector(["convert", twins.patched, "-o", output])
        #expect(convert.status == 2)
        #expect(convert.err.contains("shop.jsonl:10: the patch of \"add\" on \"CartStore\" does not apply"))
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try FileManager.default.contentsOfDirectory(atPath: twins.folder.path).sorted() == ["v1", "v2"])
    }

    @Test func linesTheReaderSkipsAreLeftOutAndNamed() throws {
        let twins = try TwinTraces()
        var text = try String(contentsOfFile: twins.whole, encoding: .utf8)
        text += "not json\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: twins.whole))
        let result = inspector(["convert", twins.whole])
        #expect(result.status == 0)
        #expect(result.err.contains("shop.jsonl:11: warning: not one JSON object"))
        #expect(!result.out.contains("not json"))
        #expect(result.out.split(separator: "\n").count == 10)
    }
}
