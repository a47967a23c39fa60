import Dispatch
import Recorder
import TimeTravel
import TraceReader

// The code block of README.md's "Time travel into a running app" and of the TimeTravel DocC
// catalog's landing article, word for word, in a function compiled with the tests (and not run:
// it names an app's trace). `TimeTravelExampleTests` checks that both show it as it is here.
// Lines after the block only silence "never used" warnings.
func timeTravelExample(catalog: Store<SessionState>, cart: Store<DocumentState>) throws {
    let restorer = Restorer([RestorableStore(catalog), RestorableStore(cart)])
    let report = try restorer.restore(from: TraceFile(path: "run.jsonl"), atStep: 12)
    print(report.restored, report.keptValues)  // the stores set, the redacted values kept live

    // In a debug build, for `inspector step --attach run.sock`; keep it while the app runs.
    let channel = try ControlChannel(
        tracePath: "run.jsonl", restorer: restorer,  // the socket: run.sock, mode 0600
        perform: { work in DispatchQueue.main.async(execute: work) })  // where the stores live
    // End of example
    _ = channel
}
