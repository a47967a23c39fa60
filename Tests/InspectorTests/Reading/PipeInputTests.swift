import Foundation
import TestSupport
import Testing

/// Traces read from pipes, devices and /proc: every input is opened once and read once (a pipe
/// cannot be read twice), a named pipe never hangs `open()`, and what gives no trace is named
/// for what it is. The real `inspector` runs under bash, which makes the pipes.
@Suite struct PipeInputTests {
    /// Runs `script` in bash with `$I` the inspector and `$T` the recorded trace (7 steps, step
    /// 4 illegal); fails the test if it runs longer than `timeout` seconds.
    static func shell(
        _ script: String, trace: RecordedTrace, timeout: Double = 30, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ChildProcess.Outcome {
        let outcome = try ChildProcess.run(
            "/bin/bash", ["-c", script],
            adding: ["I": InspectorRun.executable.path, "T": trace.path, "D": trace.folder.path, "NO_COLOR": "1"],
            timeout: timeout)
        #expect(outcome.termination != .timedOut, "hung: \(script)", sourceLocation: sourceLocation)
        return outcome
    }

    @Test func logFromStandardInputMarksTheProblemsOfWhatCameThrough() throws {
        let trace = try RecordedTrace()
        let run = try Self.shell(#"cat "$T" | "$I" log /dev/stdin --problems"#, trace: trace)
        #expect(run.termination == .exited(0), "\(run.errorText)")
        #expect(run.outputText.contains("illegal transition loading → loading"), "\(run.outputText)")
        #expect(!run.outputText.contains("not-a-trace"))
    }

    @Test func stepFromAProcessSubstitutionShowsTheProblemOfTheIllegalStep() throws {
        let trace = try RecordedTrace()
        let run = try Self.shell(#""$I" step <(cat "$T") --at 4 <<< problems"#, trace: trace)
        #expect(run.termination == .exited(0), "\(run.errorText)")
        #expect(run.outputText.contains("error: illegal: illegal transition loading → loading"), "\(run.outputText)")
        #expect(!run.outputText.contains("no problem at this step"))
    }

    @Test func aReportFromAPipeHasTheTracesProblemsOnly() throws {
        let trace = try RecordedTrace()
        let run = try Self.shell(#""$I" report <(cat "$T") -o "$D/piped.html""#, trace: trace)
        #expect(run.termination == .exited(0), "\(run.errorText)")
        #expect(run.outputText.contains("1 error, 0 warnings"), "\(run.outputText)")
        let html = try String(contentsOfFile: trace.folder.appendingPathComponent("piped.html").path, encoding: .utf8)
        #expect(!html.contains("not-a-trace"))
        #expect(html.contains("illegal transition loading"))
    }

    @Test(arguments: [
        #"log "$F" --problems"#, #"step "$F" --at 4 <<< problems"#, #"report "$F" -o "$D/fifo.html""#,
        #"validate "$F""#, #"graph "$F""#, #"show "$F" 7"#, #"stats "$F""#,
    ])
    func aNamedPipeIsReadOnceAsItIsWritten(command: String) throws {
        let trace = try RecordedTrace()
        let run = try Self.shell(
            #"F="$D/trace.fifo"; mkfifo "$F"; (cat "$T" > "$F" &); "$I" "# + command, trace: trace)
        #expect(run.termination == .exited(command.hasPrefix("validate") ? 1 : 0), "\(command): \(run.errorText)")
        #expect(!run.errorText.contains("empty"), "\(command): \(run.errorText)")
    }

    @Test(arguments: ["log", "validate", "graph"])
    func aNamedPipeWithoutAWriterIsAnErrorThatSaysSo(command: String) throws {
        let trace = try RecordedTrace()
        let run = try Self.shell(#"F="$D/lonely.fifo"; mkfifo "$F"; "$I" \#(command) "$F""#, trace: trace)
        #expect(run.termination == .exited(2))
        #expect(run.errorText.contains("is a named pipe that no program writes to"), "\(run.errorText)")
    }

    @Test(arguments: ["log", "validate", "graph"])
    func aPipeThatEndsWithoutAByteIsNotCalledAnEmptyFile(command: String) throws {
        let trace = try RecordedTrace()
        let run = try Self.shell(#"true | "$I" \#(command) /dev/stdin"#, trace: trace)
        #expect(run.termination == .exited(2))
        #expect(run.errorText.contains("nothing came from this pipe"), "\(run.errorText)")
    }

    @Test(arguments: ["log", "validate", "graph", "stats"])
    func aProcFileIsReadForWhatItHolds(command: String) throws {
        let trace = try RecordedTrace()
        let run = try Self.shell(#""$I" \#(command) /proc/self/status"#, trace: trace)
        #expect(run.termination == .exited(2))
        let all = run.outputText + run.errorText
        #expect(all.contains("line 1 is not JSON"), "\(all)")
        #expect(!all.contains("empty"), "\(all)")
    }
}

/// Devices that never end: line 1 shows they hold no trace, and reading stops there.
@Suite struct EndlessInputTests {
    @Test(arguments: [
        "graph /dev/zero", "validate /dev/zero /dev/zero /dev/zero /dev/zero", "log /dev/zero", "stats /dev/zero",
        "graph /dev/urandom", "validate /dev/urandom",
    ])
    func aDeviceThatNeverEndsIsRefusedAtOnceInLittleMemory(command: String) throws {
        let trace = try RecordedTrace()
        // 1 GB of address space at most: reading /dev/zero to the end of a 1 GiB "line" cannot fit.
        let run = try PipeInputTests.shell(#"ulimit -v 1000000; "$I" \#(command)"#, trace: trace, timeout: 20)
        #expect(run.termination == .exited(2), "\(command): \(run.errorText)")
        #expect((run.outputText + run.errorText).contains("not JSON"), "\(command): \(run.errorText)")
    }
}

/// A trace cut short while a command holds it open: the lines that are gone are an error with a
/// message (exit 2), never step 0, `{}` or "no change".
@Suite struct CutShortTests {
    @Test(arguments: ["goto 7", "state", "diff", "next"])
    func stepStopsWithAMessageWhenItsLinesAreGone(command: String) throws {
        let trace = try RecordedTrace()
        // The header stays; every event line goes while `step` waits for its next command (after
        // it printed its first step, so the file was opened and indexed whole).
        // A FIFO, not a bash coprocess: bash closes a coprocess's descriptors when it ends, which
        // raced with reading its output. SIGPIPE is ignored: `step` may exit (status 2) before it
        // reads the second command.
        let script = #"""
            trap '' PIPE
            header=$(head -n 1 "$T" | wc -c)
            mkfifo "$D/commands"
            "$I" step "$T" --at 6 <"$D/commands" >"$D/out" 2>"$D/err" &
            pid=$!
            exec {to}>"$D/commands"
            for _ in $(seq 200); do [ -s "$D/out" ] && break; sleep 0.05; done
            truncate -s "$header" "$T"
            printf 'goto 6\n%s\n' "\#(command)" >&"$to"
            exec {to}>&-
            wait "$pid"; status=$?
            cat "$D/out"; cat "$D/err" >&2
            echo "status $status"
            """#
        let run = try PipeInputTests.shell(script, trace: trace)
        #expect(run.outputText.hasSuffix("status 2\n"), "\(command): \(run.outputText) \(run.errorText)")
        #expect(run.errorText.contains("can no longer be read"), "\(command): \(run.errorText)")
        #expect(!run.outputText.contains("step 0 of 7"), "\(command): \(run.outputText)")
        #expect(!run.outputText.contains("no change"))
        #expect(!run.outputText.hasSuffix("{}\n"))
    }
}
