import Foundation

/// The time from starting `inspector step TRACE` on a terminal (a pseudo-terminal made by
/// `script`) to its first full screen: until the status line (`· step 0 of …`) has come out,
/// the last line the view draws. Then `q` ends it.
enum FirstScreenMeasurement {
    /// Seconds to the first screen, or nil when `script` is missing or the screen never came.
    static func seconds(inspector: String, trace: String) -> Double? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qfc", "'\(inspector)' step '\(trace)'", "/dev/null"]
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["COLUMNS"] = "120"
        environment["LINES"] = "40"
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            try process.run()
        } catch {
            return nil
        }
        defer {
            try? input.fileHandleForWriting.write(contentsOf: Data("q".utf8))
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning { process.terminate() }
        }
        var seen = Data()
        let marker = Data(" step 0 of ".utf8)
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            seen.append(chunk)
            if seen.range(of: marker) != nil {
                return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            }
        }
    }
}
