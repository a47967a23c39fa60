import Recorder

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `TraceProbe --app-launch`: what README.md's "In an iOS or macOS app" has an app do as it
/// launches, word for word between the `Example` lines (`ReadmeAppLaunchTests` checks that the
/// README shows them as they are): find the app's Application Support folder, print where it
/// records, and start a new trace there. The tests run it with `XDG_DATA_HOME` set to a folder
/// of their own, which is Application Support on Linux. Then one action, so that the trace has
/// an event after its header.
enum AppLaunch {
    static func run() throws {
        // Example: where the trace goes
        let folder = try FileManager.default.url(
            for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
        let tracePath = folder.appendingPathComponent("run.jsonl").path
        print("Rewind records to \(tracePath)")
        let recorder = try TraceRecorder(path: tracePath, replacing: true, app: "Shop")  // a new trace each launch
        // End of example
        let launches = Store(initialState: 0, name: "Launches", recorder: recorder)
        launches.send("launched") { $0 += 1 }
    }
}
