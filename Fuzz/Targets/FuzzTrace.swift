// libFuzzer entry point for reading traces: `TraceFile`, `TraceValidator` and `TransitionTally`.
// Built and run by .ci/fuzz (see Fuzz/README.md); not part of the Swift package.
//
// Beyond "no crash, no hang, no unbounded memory", every input must satisfy:
// - the validator's counts match its problems (errors, warnings, at most one fatal) and its
//   problems are in line order, each on a line of the file;
// - `TraceFile` refuses the input exactly when the validator calls it `not-a-trace`;
// - when it opens, the reader and the validator see the same events and skip the same lines,
//   and every event, step and store state can be read;
// - in a version 2 trace, `TraceFile`'s state of every store at every step is what applying the
//   patches in order gives (`JSONPatch.apply`, event by event), and where that fails, the reader
//   gives no state and the validator reports `bad-patch` on that line, and nowhere else.

import Recorder
import TraceJSON
import TraceReader

#if canImport(Glibc)
    import Glibc
#endif

/// Reports a broken invariant and stops the fuzzer with a crash it records.
func violated(_ message: String) -> Never {
    let line = "FuzzTrace: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    let lineCount = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }

    let report = TraceValidator().validate(bytes: bytes, file: "fuzz.jsonl")
    let errors = report.problems.count { $0.severity == .error }
    let warnings = report.problems.count { $0.severity == .warning }
    let fatal = report.problems.count { $0.severity == .fatal }
    // `errors` counts a fatal problem too (a trace that cannot be read is not a pass).
    if report.errors + report.warnings != report.problems.count + report.omitted
        || (report.omitted == 0 && (errors + fatal != report.errors || warnings != report.warnings))
    {
        violated(
            "report counts \(report.errors) errors, \(report.warnings) warnings, \(report.omitted) omitted; lists \(errors) errors, \(fatal) fatal, \(warnings) warnings"
        )
    }
    if fatal > 1 { violated("\(fatal) fatal problems") }
    if fatal == 1 && report.problems.count != 1 { violated("a fatal problem with others beside it") }
    if report.events < 0 || report.events > lineCount { violated("\(report.events) events in \(lineCount) lines") }
    var previousLine = 0
    for problem in report.problems {
        if problem.line < previousLine { violated("problems out of line order: \(problem.line) after \(previousLine)") }
        if problem.line < 1 || problem.line > lineCount {
            violated("a problem on line \(problem.line) of \(lineCount)")
        }
        if problem.severity != problem.kind.severity { violated("\(problem.kind) with severity \(problem.severity)") }
        if problem.message.isEmpty { violated("a \(problem.kind) problem without a message") }
        previousLine = problem.line
    }

    let trace: TraceFile
    do {
        trace = try TraceFile(bytes: bytes, name: "fuzz.jsonl")
    } catch {
        if !report.isFatal { violated("TraceFile refused (\(error)) a trace the validator reads") }
        if "\(error)".isEmpty { violated("an open error without a message") }
        return 0
    }
    if report.isFatal { violated("TraceFile opened a trace the validator calls not-a-trace") }
    if trace.eventCount != report.events {
        violated("TraceFile reads \(trace.eventCount) events, the validator \(report.events)")
    }
    // TraceFile lists at most 100 issues of a kind, then one more on the first line it left
    // out (saying how many); past that, only the validator names each line.
    var skipped = Set<Int>()
    var problems = Set<Int>()
    for (issueKind, problemKind) in [(TraceReadIssue.Kind.malformed, ProblemKind.malformed), (.truncated, .truncated)] {
        let listed = trace.issues.filter { $0.kind == issueKind }.map(\.line)
        var reported = report.problems.filter { $0.kind == problemKind }.map(\.line)
        if listed.count > 100 { reported = Array(reported.prefix(listed.count)) }
        skipped.formUnion(listed)
        problems.formUnion(reported)
    }
    if skipped != problems { violated("TraceFile skips lines \(skipped.sorted()), the validator \(problems.sorted())") }

    for index in 0..<trace.eventCount {
        guard trace.event(at: index) != nil else { violated("event \(index) cannot be read") }
        guard let line = trace.line(ofEventAt: index), trace.eventIndex(atLine: line) == index else {
            violated("event \(index) and its line do not map to each other")
        }
    }
    if trace.lastStep >= 0 {
        // One past the last step, unless the last is the largest seq there is.
        for step in [0, trace.lastStep / 2, trace.lastStep, trace.lastStep == Int.max ? Int.max : trace.lastStep + 1] {
            let state = trace.appState(atStep: step)
            for store in trace.storeNames {
                if state[store] != trace.state(of: store, atStep: step) {
                    violated("appState and state(of:) differ for \(store) at step \(step)")
                }
            }
        }
    }
    if trace.header.version >= 2 { checkRebuiltStates(of: trace, against: report) }
    _ = try? TransitionTally.count(bytes: bytes, file: "fuzz.jsonl")
    return 0
}

/// Replays `trace` event by event, applying each patch to its store's state with `JSONPatch.apply`,
/// and checks `TraceFile`'s state of every store at every step against it, and the validator's
/// `bad-patch` problems against the patches that do not apply.
func checkRebuiltStates(of trace: TraceFile, against report: ValidationReport) {
    // Each store's state after its latest event; nil while it is unknown (never given, or a
    // patch did not apply).
    var states: [String: JSONValue] = [:]
    var failedLines = Set<Int>()
    for index in 0..<trace.eventCount {
        guard let event = trace.event(at: index), let step = trace.step(ofEventAt: index) else {
            violated("event \(index) cannot be read")
        }
        if event.setsState, let store = event.store {
            if let state = event.state {
                states[store] = state
            } else if let patch = event.patch {
                if let before = states[store] {
                    states[store] = try? JSONPatch.apply(patch, to: before)
                    if states[store] == nil { failedLines.insert(event.line) }
                }
            } else {
                violated("line \(event.line) sets a state with neither state nor patch")
            }
        }
        for store in trace.storeNames where trace.state(of: store, atStep: step) != states[store] {
            violated("the state of \(store) at step \(step) is not the patches applied in order")
        }
    }
    guard report.omitted == 0 else { return }
    let badPatches = Set(report.problems.filter { $0.kind == .badPatch }.map(\.line))
    if badPatches != failedLines {
        violated(
            "patches fail on lines \(failedLines.sorted()); the validator reports bad-patch on \(badPatches.sorted())")
    }
}
