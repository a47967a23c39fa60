// swift-tools-version: 6.0
// Rewind: a time-travel debugger and state recorder for Swift state containers.
// No package dependencies, on purpose: the Recorder library goes into other people's apps.
import PackageDescription

let package = Package(
    name: "Rewind",
    products: [
        .library(name: "Recorder", targets: ["Recorder"]),
        .executable(name: "inspector", targets: ["Inspector"]),
        .executable(name: "sample-app", targets: ["SampleApp"]),
    ],
    targets: [
        .target(name: "Recorder"),
        // Not a product: the command-line parsing both executables share.
        .target(name: "CommandLineArguments", dependencies: ["Recorder"]),
        .executableTarget(name: "Inspector", dependencies: ["Recorder", "CommandLineArguments"]),
        .executableTarget(name: "SampleApp", dependencies: ["Recorder", "CommandLineArguments"]),
        // Not a product: `swift run -c release Benchmarks` (README, "Performance").
        .executableTarget(name: "Benchmarks", dependencies: ["Recorder"]),
        // Not a product: a child process that records, for the crash and kill tests.
        .executableTarget(name: "TraceProbe", dependencies: ["Recorder"]),
        // Not a product: what the test targets share (running child processes with a deadline).
        .target(name: "TestSupport", path: "Tests/Support"),
        .testTarget(name: "RecorderTests", dependencies: ["Recorder", "TraceProbe", "TestSupport"]),
        .testTarget(name: "InspectorTests", dependencies: ["Inspector", "Recorder", "CommandLineArguments", "TestSupport"]),
        .testTarget(name: "CommandLineArgumentsTests", dependencies: ["CommandLineArguments"]),
        .testTarget(name: "SampleAppTests", dependencies: ["SampleApp", "Recorder", "CommandLineArguments", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
