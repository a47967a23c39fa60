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
//   TraceJSON      JSON for reading traces: values, the parser and printer, decoding recorded states
//                  into the app's types, state paths, JSON Pointer, JSON Patch and the diff of two
//                  values that patches are made from (the trace reader rebuilds version 2 states
//                  with it, and `convert` makes patches with it).
//   TraceReader    trace files: scanning events, opening and indexing traces, rebuilding states,
//                  conversion and validation.
//   TimeTravel     what an app links in debug builds to be set to a recorded step: restoring its
//                  stores from its trace, and the control channel that `inspector step --attach`
//                  drives. Apart from Recorder, which must stay small and never read a trace:
//                  Recorder only has the store's side of a restore (`package` API). Links
//                  TraceJSON and TraceReader, not the queries.
//   TraceQueries   what the inspector's commands and an app's tests ask of traces: diff printing,
//                  queries (`when`, `why`, statistics, search), coverage, comparison and replay
//                  (`ReplayTable.restoring(with:)` restores through TimeTravel, hence its place).
// The `TraceReader` product is TraceJSON, TraceReader and TraceQueries: what an app's tests use.
// What crosses these modules inside the package is `package`; a hot helper that the trace reader
// calls per string (`JSONScanner`'s plain-ASCII skip) is `@_spi(RewindInternals) public
// @inlinable`, as in RewindSupport. The compiler enforces the layers: a module cannot import a
// later one.
import PackageDescription

// Test code (the test targets and TestSupport, in no product, so the flag never reaches an app)
// is compiled without optimization in every configuration. CI's release stage checks the
// libraries optimized, where their unsafe code's tricks would break; optimizing the tests that
// drive them checked nothing more and took 40% of that stage's time (752 s of CPU, now 453 s).
let testCode: [SwiftSetting] = [.unsafeFlags(["-Onone"], .when(configuration: .release))]

let package = Package(
    name: "Rewind",
    // What the apps that link Rewind support (as the Composable Architecture does). Newer APIs
    // (`Synchronization`, Observation, `InlineArray`) are used behind `#available` only; CI
    // type-checks the libraries for iOS 16 and macOS 13 (`../shared/apple-check`).
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "Recorder", targets: ["Recorder"]),
        .library(name: "RecorderPatches", targets: ["RecorderPatches"]),
        .library(name: "TraceReader", targets: ["TraceJSON", "TraceReader", "TraceQueries"]),
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
        .target(name: "TraceJSON", dependencies: ["Recorder", "RewindSupport", "ToolSupport"]),
        .target(name: "TraceReader", dependencies: ["TraceJSON", "Recorder", "RewindSupport", "ToolSupport"]),
        .target(name: "TimeTravel", dependencies: ["Recorder", "TraceReader", "TraceJSON", "RewindSupport"]),
        .target(
            name: "TraceQueries",
            dependencies: ["TraceReader", "TraceJSON", "TimeTravel", "Recorder", "RewindSupport", "ToolSupport"]),
        // Not a product: the command-line parsing both executables share.
        .target(name: "CommandLineArguments", dependencies: ["ToolSupport"]),
        .executableTarget(
            name: "Inspector",
            dependencies: [
                "TraceReader", "TraceJSON", "TraceQueries", "TimeTravel", "RewindSupport", "ToolSupport",
                "CommandLineArguments",
            ],
            // The report page's script and stylesheet, real files read through `PackageResources`.
            resources: [.embedInCode("Report/Page/page.js"), .embedInCode("Report/Page/page.css")]
        ),
        .executableTarget(
            name: "SampleApp",
            dependencies: [
                "Recorder", "TraceReader", "TraceJSON", "TraceQueries", "TimeTravel", "RewindSupport", "ToolSupport",
                "CommandLineArguments",
            ]
        ),
        // Not a product: `swift run -c release Benchmarks` (README, "Performance").
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                "Recorder", "RecorderPatches", "TraceReader", "TraceJSON", "TraceQueries", "TimeTravel",
                "RewindSupport",
            ]),
        // Not a product: a child process that records, for the crash and kill tests.
        .executableTarget(name: "TraceProbe", dependencies: ["Recorder"]),
        // Not a product: what the test targets share (running child processes with a deadline).
        .target(name: "TestSupport", dependencies: ["Recorder"], path: "Tests/TestSupport", swiftSettings: testCode),
        .testTarget(name: "RewindSupportTests", dependencies: ["RewindSupport"], swiftSettings: testCode),
        .testTarget(name: "ToolSupportTests", dependencies: ["ToolSupport", "RewindSupport"], swiftSettings: testCode),
        .testTarget(
            name: "RecorderTests", dependencies: ["Recorder", "TraceReader", "TraceJSON", "TraceProbe", "TestSupport"],
            swiftSettings: testCode),
        .testTarget(
            name: "RecorderPatchesTests",
            dependencies: ["RecorderPatches", "Recorder", "TraceReader", "TraceJSON", "TestSupport"],
            swiftSettings: testCode),
        .testTarget(
            name: "TraceReaderTests",
            dependencies: [
                "TraceReader", "TraceJSON", "TraceQueries", "Recorder", "RewindSupport", "ToolSupport", "TestSupport",
            ],
            swiftSettings: testCode),
        .testTarget(
            name: "TimeTravelTests",
            dependencies: [
                "TimeTravel", "Recorder", "RecorderPatches", "TraceReader", "TraceJSON", "TraceQueries",
                "RewindSupport", "TestSupport",
            ], swiftSettings: testCode),
        .testTarget(
            name: "InspectorTests",
            dependencies: [
                "Inspector", "TraceReader", "TraceJSON", "TraceQueries", "Recorder", "RewindSupport", "TimeTravel",
                "CommandLineArguments", "TestSupport",
            ], swiftSettings: testCode),
        .testTarget(name: "CommandLineArgumentsTests", dependencies: ["CommandLineArguments"], swiftSettings: testCode),
        .testTarget(
            name: "SampleAppTests",
            dependencies: [
                "SampleApp", "Recorder", "TraceReader", "TraceJSON", "TraceQueries", "TimeTravel",
                "CommandLineArguments", "TestSupport",
            ], swiftSettings: testCode),
    ],
    swiftLanguageModes: [.v6]
)

// `REWIND_LIBRARIES_ONLY=1 swift test …`: the libraries and the tests of CI's release stage
// under ThreadSanitizer only, without the commands (inspector, sample-app, the benchmarks) and
// the test targets that stage does not run (.ci/run); building the commands optimized and
// instrumented for it took a third of that stage.
if Context.environment["REWIND_LIBRARIES_ONLY"] == "1" {
    let commands: Set<String> = [
        "Inspector", "SampleApp", "Benchmarks", "CommandLineArguments", "InspectorTests", "SampleAppTests",
        "CommandLineArgumentsTests", "TimeTravelTests", "ToolSupportTests",
    ]
    package.targets.removeAll { commands.contains($0.name) }
    package.products.removeAll { $0.name == "inspector" || $0.name == "sample-app" }
}
