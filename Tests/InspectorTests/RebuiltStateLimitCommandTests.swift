import Foundation
import TestSupport
import Testing

/// The hostile version 2 files of issue 34 (`Fuzz/Hostile`): patches that nest a state past a
/// parsed state's depth, and copy bombs. Every command that needs the state says `bad-patch` on
/// line 3, as `validate` does; none crashes, prints a wrong state or grows without end.
@Suite struct RebuiltStateLimitCommandTests {
    static let files = ["deep-patch.jsonl", "copy-bomb.jsonl", "copy-bomb-array.jsonl"]

    @Test(arguments: files)
    func everyCommandAgreesThatLine3IsABadPatch(_ name: String) throws {
        let folder = try HostileFolder()
        let path = packageRoot.appendingPathComponent("Fuzz/Hostile/\(name)").path
        let validate = try InspectorRun(["validate", "--format", "json", path], in: folder)
        #expect(validate.status == 1, "\(validate)")
        #expect(validate.out.contains(#""kind":"bad-patch","severity":"error","line":3"#), "\(validate)")
        // Each command that needs the state at step 2 or 3: the same problem, named by its line.
        let needing: [[String]] = [
            ["show", path, "2"], ["show", path, "3"], ["diff", path, "2"], ["diff", path, "1", "3"],
            ["convert", path], ["convert", path, "--to", "1"], ["compare", path, path],
        ]
        for arguments in needing {
            let run = try InspectorRun(arguments, in: folder)
            #expect(run.status == 2, "\(run)")
            #expect(run.err.contains("\(name):3:") || run.err.contains("line 3"), "\(run)")
            #expect(run.err.contains("bad-patch"), "\(run)")
            #expect(run.out.isEmpty || arguments[0] == "convert", "\(run)")
        }
        let log = try InspectorRun(["log", path, "--problems"], in: folder)
        #expect(log.out.contains("✖ bad-patch") && log.out.contains("patch["), "\(log)")
        // The state at step 1, before the patch, is still shown.
        let before = try InspectorRun(["show", path, "1"], in: folder)
        #expect(before.status == 0 && before.out.contains(#""arr""#), "\(before)")
        for arguments in HostileInputTests.commands(on: path, folder: folder) {
            try InspectorRun(arguments.command, input: arguments.input, in: folder).expectOrderlyEnd(name)
        }
    }
}
