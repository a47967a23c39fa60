import CommandLineArguments
import TraceReader

/// `inspector convert TRACE [-o OUT] [--to 1|2]`: a trace written again in the other version.
enum Convert: Command {
    static let name = "convert"
    static let summary = "write a trace as version 1 (whole states, for jq) or version 2 (patches)"
    static let help = """
        Usage: inspector convert TRACE [-o OUT] [--to 1|2]

        Writes TRACE again in another version of the trace format. Version 1 gives every
        transition its whole "state" (rebuilt from the patches of a version 2 trace), so that
        jq, DuckDB and any JSON tool can read every state. Version 2 gives a transition a
        "patch" (RFC 6902) from its store's state before it instead, where the patch is
        smaller than the state, with a whole state again once the patches since the last one
        would outweigh it or number more than 1,024; the header says version 2 only if some
        transition got a patch. Every other member of every event is kept as it is; lines the
        reader skips (malformed, a torn last line) are left out and named on standard error.

        Options:
          --to 1|2           the version to write (default: 1 for a version 2 trace, 2 for a
                             version 1 trace)
          -o, --output OUT   where to write (default: standard output, -). An existing file
                             is replaced, through a temporary file, only once the whole trace
                             is written, and gets the trace's permissions; a pipe or a
                             terminal is written to, never replaced; a directory, a symbolic
                             link or a device other than a terminal is refused.

        Examples:
          inspector convert run.jsonl --to 1 | jq -c 'select(.store == "CartStore") | .state'
          inspector convert run.jsonl --to 2 -o run-small.jsonl

        Exit status:
          0  the trace was written
          2  the command line is wrong, the trace cannot be read or is not a trace, a state
             cannot be rebuilt (a version 2 patch that does not apply: run 'inspector
             validate'), or the output cannot be written
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let longOutput = try arguments.option("--output")
        let shortOutput = try arguments.option("-o")
        guard longOutput == nil || shortOutput == nil else { throw UsageError("give -o or --output, not both") }
        let version = try arguments.choice("--to", among: ["1", "2"]).flatMap { Int($0) }
        let path = try arguments.positional("TRACE (the trace file)")
        try arguments.finish()
        let target = longOutput ?? shortOutput ?? "-"
        guard !target.isEmpty else { throw UsageError("-o needs a file name, or - for standard output") }

        let trace = try TraceOpening.open(path)
        TraceOpening.reportIssues(of: trace, console: console)
        guard !ReportFile.isSameFile(path, target) else {
            throw UsageError("the output would replace the trace \(TTY.safe(path)); give -o another file")
        }
        let converter = TraceConverter(trace: trace, version: version ?? (trace.header.version >= 2 ? 1 : 2))
        var summary = TraceConverter.Summary()
        try ReportFile.write(
            to: target, mode: ReportFile.mode(of: path), standardOutput: console.out, kind: "a .jsonl file"
        ) { (emit: ReportFile.Emit) throws(FileError) in
            do {
                summary = try converter.write { try emit($0) }
            } catch let error as FileError {
                throw error
            } catch let error as TraceReadError {
                throw FileError(error.path, line: error.line, error.message)
            } catch {
                throw FileError(path, "\(error)")
            }
        }
        if target != "-" {
            let patches = summary.patches == 1 ? "1 patch" : "\(summary.patches) patches"
            console.out.line(
                "wrote \(TTY.safe(target)): version \(summary.version), \(summary.events == 1 ? "1 event" : "\(summary.events) events"), \(patches)"
            )
        }
        return ExitStatus.success
    }
}
