import Foundation
import Testing

/// File names are text from anywhere: one with an escape sequence, a BEL, a bidirectional
/// override or a zero-width character never reaches a terminal raw, in any message of any
/// command (they set the window's title through the warnings).
@Suite struct FileNameTests {
    static let hostileName = "t\u{1B}]0;pwned\u{07}\u{202E}lmth\u{200B}\u{FEFF}.jsonl"

    @Test func aHostileFileNameIsEscapedInEveryMessage() throws {
        let folder = try HostileFolder()
        let path = folder.path(Self.hostileName)
        // A torn last line, so that every command that opens the trace warns, naming the file.
        let lines = [HostileInputTests.header, HostileInputTests.register, HostileInputTests.transition]
        try Data((lines.joined(separator: "\n") + "\n{\"type\":\"tra").utf8).write(to: URL(fileURLWithPath: path))
        let commands: [([String], String)] = [
            (["log", path], ""), (["log", path, "--store", "Nope"], ""), (["show", path, "2"], ""),
            (["show", path, "9"], ""), (["diff", path, "2"], ""), (["why", path, "2"], ""),
            (["when", path, "S.n"], ""),
            (["stats", path], ""), (["report", path, "-o", folder.path("r.html")], ""), (["step", path], "next\n"),
            (["validate", path], ""), (["graph", path], ""), (["log", path + ".missing"], ""),
        ]
        for (arguments, input) in commands {
            let run = try InspectorRun(arguments, input: input, in: folder)
            run.expectOrderlyEnd("a hostile file name")
            for (stream, bytes) in [("standard output", run.outBytes), ("standard error", run.errBytes)] {
                let found = HostileInputTests.controlCharacter(in: bytes)
                #expect(found == nil, "raw \(found ?? "") on \(stream): \(run)")
            }
            #expect(run.err.contains("pwned") || run.out.contains("pwned"), "the file is named: \(run)")
        }
    }
}
