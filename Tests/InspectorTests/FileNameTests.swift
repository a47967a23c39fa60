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

    /// A folder whose illegal trace has a name that is not UTF-8: it is validated (it was skipped,
    /// and `validate --strict` passed), named in the output with the byte shown as `\xFF`, and
    /// naming it on the command line opens it (it said "No such file or directory").
    @Test func aFileNameThatIsNotUTF8IsReadAndNamed() throws {
        let trace = try RecordedTrace()  // step 4 is illegal
        let script = #"""
            mkdir "$D/dir"; cp "$T" "$D/dir/bad"$'\xff'".jsonl"; cp "$T" "$D/dir/caf"$'\xc3\xa9'".jsonl"
            "$I" validate --strict "$D/dir"; echo "status $?"
            "$I" validate "$D/dir/bad"$'\xff'".jsonl"; echo "status $?"
            "$I" log "$D/dir/bad"$'\xff'".jsonl" --problems | grep -c illegal
            "$I" report "$D/dir/bad"$'\xff'".jsonl" -o "$D/dir/out"$'\xfe'".html"; echo "status $?"
            ls "$D/dir" | od -c | grep -c 376
            """#
        let run = try PipeInputTests.shell(script, trace: trace)
        let lines = run.outputText.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("status") } == ["status 1", "status 1", "status 0"], "\(run.outputText)")
        #expect(run.outputText.contains("/dir/bad\\xFF.jsonl:"), "\(run.outputText)")
        #expect(run.outputText.contains("/dir/café.jsonl:"), "\(run.outputText)")
        #expect(run.outputText.contains("wrote \(trace.folder.path)/dir/out\\xFE.html"), "\(run.outputText)")
        #expect(lines.last == "1", "the report's name is the bytes given: \(run.outputText)")
        #expect(!run.errorText.contains("No such file"), "\(run.errorText)")
    }

    /// A `*.jsonl` entry that is not a regular file is reported, never skipped silently.
    @Test func aDirectoryEntryThatIsNotAFileIsReported() throws {
        let trace = try RecordedTrace()
        let run = try PipeInputTests.shell(
            #"mkdir "$D/dir"; cp "$T" "$D/dir/a.jsonl"; mkfifo "$D/dir/b.jsonl"; "$I" validate "$D/dir""#, trace: trace)
        #expect(run.termination == .exited(2))
        #expect(run.errorText.contains("b.jsonl: is not a regular file (a named pipe)"), "\(run.errorText)")
        #expect(run.outputText.contains("a.jsonl: 7 events, 1 error"), "\(run.outputText)")
    }
}
