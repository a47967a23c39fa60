// swift-tools-version: 6.0
// The smallest app that records with Rewind: one store, one machine, a trace file. CI builds it
// in release, strips it, and checks that it links none of Rewind's reading code and stays small
// (`.ci/check-app-size`; the README's "Recording a store" gives the size).
import PackageDescription

let package = Package(
    name: "MinimalRecordingApp",
    dependencies: [.package(name: "Rewind", path: "../..")],
    targets: [
        .executableTarget(
            name: "MinimalRecordingApp",
            dependencies: [.product(name: "Recorder", package: "Rewind")]
        )
    ],
    swiftLanguageModes: [.v6]
)
