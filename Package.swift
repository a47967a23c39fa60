// swift-tools-version: 6.0
// Rewind: a time-travel debugger and state recorder for Swift state containers.
// No package dependencies, on purpose: the Recorder library goes into other people's apps.
//
// The layers, each depending only on the ones before it:
//   RewindSupport  the few internals both libraries need (a lock, file descriptors, hashing):
//                  `package` access, except what hot paths inline across modules, which is
//                  `@_spi(RewindInternals) public @inlinable` (Swift 6.3 does not inline a
//                  `package` function's body into another module: validation was 16% slower)
//   Recorder       what an app links into its shipping binary: stores, state machines, the
//                  trace recorder, its sinks and encoder. Nothing that reads a trace.
//   RecorderPatches  what an app links to record patches (version 2 traces) for big states.
//   TraceReader    what reads traces: the JSON parser and values, decoding recorded states into
//                  the app's types, trace files, validation, diff and queries. For the inspector
//                  and for an app's own tests.
//   TimeTravel     what an app links in debug builds to be set to a recorded step: restoring its
//                  stores from its trace, and the control channel that `inspector step --attach`
//                  drives. Apart from Recorder, which must stay small and never read a trace:
//                  Recorder only has the store's side of a restore (`package` API).
import PackageDescription

let package = Package(
    name: "Rewind",
    // What the apps that link Rewind support (as the Composable Architecture does). Newer APIs
    // (`Synchronization`, Observation, `InlineArray`) are used behind `#available` only; CI
    // type-checks the libraries for iOS 16 and macOS 13 (`../shared/apple-check`).
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "Recorder", targets: ["Recorder"]),
        .library(name: "RecorderPatches", targets: ["RecorderPatches"]),
        .library(name: "TraceReader", targets: ["TraceReader"]),
        .library(name: "TimeTravel", targets: ["TimeTravel"]),
        .executable(name: "inspector", targets: ["Inspector"]),
        .executable(name: "sample-app", targets: ["SampleApp"]),
    ],
    targets: [
        .target(name: "RewindSupport"),
        // What only the tools and the reading library need (terminal text, raw terminal mode,
        // directory listings), kept out of RewindSupport so that apps do not link it.
        .target(name: "ToolSupport", dependencies: ["RewindSupport"]),
        .target(name: "Recorder", dependencies: ["RewindSupport"]),
        // Version 2 recording (`TraceRecorder.Patches.automatic()`): its own module, because a
        // module's code is linked whole, and an app that records whole states should not ship it.
        .target(name: "RecorderPatches", dependencies: ["Recorder", "RewindSupport"]),
        .target(name: "TraceReader", dependencies: ["Recorder", "RewindSupport", "ToolSupport"]),
        .target(name: "TimeTravel", dependencies: ["Recorder", "TraceReader", "RewindSupport"]),
        // Not a product: the command-line parsing both executables share.
        .target(name: "CommandLineArguments", dependencies: ["ToolSupport"]),
        .executableTarget(
            name: "Inspector",
            dependencies: ["TraceReader", "TimeTravel", "RewindSupport", "ToolSupport", "CommandLineArguments"],
            // The report page's script and stylesheet, real files read through `PackageResources`.
            resources: [.embedInCode("Report/Page/page.js"), .embedInCode("Report/Page/page.css")]
        ),
        .executableTarget(
            name: "SampleApp",
            dependencies: [
                "Recorder", "TraceReader", "TimeTravel", "RewindSupport", "ToolSupport", "CommandLineArguments",
            ]
        ),
        // Not a product: `swift run -c release Benchmarks` (README, "Performance").
        .executableTarget(
            name: "Benchmarks",
            dependencies: ["Recorder", "RecorderPatches", "TraceReader", "TimeTravel", "RewindSupport"]),
        // Not a product: a child process that records, for the crash and kill tests.
        .executableTarget(name: "TraceProbe", dependencies: ["Recorder"]),
        // Not a product: what the test targets share (running child processes with a deadline).
        .target(name: "TestSupport", dependencies: ["Recorder"], path: "Tests/TestSupport"),
        .testTarget(name: "RewindSupportTests", dependencies: ["RewindSupport"]),
        .testTarget(name: "ToolSupportTests", dependencies: ["ToolSupport", "RewindSupport"]),
        .testTarget(name: "RecorderTests", dependencies: ["Recorder", "TraceReader", "TraceProbe", "TestSupport"]),
        .testTarget(
            name: "RecorderPatchesTests", dependencies: ["RecorderPatches", "Recorder", "TraceReader", "TestSupport"]),
        .testTarget(name: "TraceReaderTests", dependencies: ["TraceReader", "Recorder", "ToolSupport", "TestSupport"]),
        .testTarget(
            name: "TimeTravelTests",
            dependencies: ["TimeTravel", "Recorder", "TraceReader", "RewindSupport", "TestSupport"]
        ),
        .testTarget(
            name: "InspectorTests",
            dependencies: ["Inspector", "TraceReader", "Recorder", "TimeTravel", "CommandLineArguments", "TestSupport"]
        ),
        .testTarget(name: "CommandLineArgumentsTests", dependencies: ["CommandLineArguments"]),
        .testTarget(
            name: "SampleAppTests",
            dependencies: ["SampleApp", "Recorder", "TraceReader", "TimeTravel", "CommandLineArguments", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
