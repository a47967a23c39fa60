// swift-tools-version: 6.0
// Rewind: a time-travel debugger and state recorder for Swift state containers.
// No package dependencies, on purpose: the Recorder library goes into other people's apps.
import PackageDescription

let package = Package(
    name: "Rewind",
    products: [
        .library(name: "Recorder", targets: ["Recorder"]),
        .executable(name: "inspector", targets: ["Inspector"]),
    ],
    targets: [
        .target(name: "Recorder"),
        .executableTarget(name: "Inspector", dependencies: ["Recorder"]),
        // Not a product: a child process that records, for the crash and kill tests.
        .executableTarget(name: "TraceProbe", dependencies: ["Recorder"]),
        .testTarget(name: "RecorderTests", dependencies: ["Recorder", "TraceProbe"]),
        .testTarget(name: "InspectorTests", dependencies: ["Inspector", "Recorder"]),
    ],
    swiftLanguageModes: [.v6]
)
