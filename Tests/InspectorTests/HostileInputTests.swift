import Foundation
import Recorder
import Synchronization
import TestSupport
import Testing

@testable import Inspector

#if canImport(Glibc)
    import Glibc
#endif

/// Every inspector command on files that are hostile, damaged or not traces at all: deep
/// nesting, a very long line, invalid UTF-8, NUL bytes, a PNG, `/dev/null`, a directory, a file
/// that grows while it is read, a header alone, CRLF lines. Each command must end with status 0,
/// 1 or 2 and, for 2, a message naming the file; never a signal (a trap, a stack overflow, a
/// memory blow-up killed by the system) and never a hang. The real `inspector` binary runs in a
/// child process, so a crash is seen as a signal exit instead of taking the test runner down.
@Suite struct HostileInputTests {
    static let header =
        #"{"type":"header","format":"rewind-trace","version":1,"app":"Hostile","machines":{"S":{"initial":"a","transitions":{"a":["b"],"b":["a"]}}}}"#
    static let register = #"{"type":"register","seq":1,"store":"S","case":"a","state":{"n":0}}"#
    static let transition =
        #"{"type":"transition","seq":2,"store":"S","action":"go","from":"a","to":"b","changed":true,"state":{"n":1}}"#

    /// The size of the long-line case. 20 MB keeps a debug run quick; the 200 MB case of the
    /// issue is run by hand on a release build: REWIND_HOSTILE_LINE_MB=200.
    static let longLineBytes =
        (ProcessInfo.processInfo.environment["REWIND_HOSTILE_LINE_MB"].flatMap(Int.init) ?? 20) << 20

    /// A hostile input, what `inspector validate` must answer, and text its output must hold.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let validateStatus: Int32
        /// Text the output of `inspector validate` holds; nil for a trace that passes.
        let expected: String?
        let contents: @Sendable () -> [UInt8]?
        var testDescription: String { name }
    }

    static func lines(_ lines: String...) -> [UInt8] { Array(lines.joined(separator: "\n").utf8) + [0x0A] }

    static let cases: [Case] = [
        Case(name: "100,000 [ after a valid header", validateStatus: 1, expected: "malformed") {
            Array(header.utf8) + [0x0A] + [UInt8](repeating: UInt8(ascii: "["), count: 100_000) + [0x0A]
        },
        Case(name: "100,000 [ as line 1", validateStatus: 2, expected: "not-a-trace") {
            [UInt8](repeating: UInt8(ascii: "["), count: 100_000) + [0x0A]
        },
        Case(name: "100,000 [ inside a state", validateStatus: 1, expected: "malformed") {
            lines(header, register)
                + Array(
                    #"{"type":"transition","seq":2,"store":"S","action":"go","from":"a","to":"b","changed":true,"state":"#
                        .utf8)
                + [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
                + [UInt8](repeating: UInt8(ascii: "]"), count: 100_000) + Array("}\n".utf8)
        },
        Case(name: "a very long line", validateStatus: 0, expected: nil) {
            var bytes = lines(header, register)
            bytes += Array(
                #"{"type":"transition","seq":2,"store":"S","action":"go","from":"a","to":"b","changed":true,"state":{"blob":""#
                    .utf8)
            bytes += [UInt8](repeating: UInt8(ascii: "x"), count: longLineBytes)
            bytes += Array("\"}}\n".utf8)
            return bytes
        },
        Case(name: "invalid UTF-8 in a state", validateStatus: 1, expected: "malformed") {
            lines(header, register)
                + Array(
                    #"{"type":"transition","seq":2,"store":"S","action":"go","from":"a","to":"b","changed":true,"state":"a"#
                        .utf8)
                + [0xFF, 0xFE, 0xC3, 0x28, 0xED, 0xA0, 0x80] + Array("\"}\n".utf8)
        },
        Case(name: "invalid UTF-8 in the header", validateStatus: 2, expected: "not-a-trace") {
            Array(#"{"type":"header","format":"rewind-trace","version":1,"app":""#.utf8) + [0xC0, 0xAF]
                + Array(#"","machines":{}}"#.utf8) + [0x0A]
        },
        Case(name: "a NUL byte inside a string", validateStatus: 1, expected: "malformed") {
            lines(header, register) + Array(#"{"type":"transition","seq":2,"store":"S","action":"g"#.utf8) + [0x00]
                + Array(#"o","from":"a","to":"b","changed":true,"state":{"n":1}}"#.utf8) + [0x0A]
        },
        Case(name: "a NUL byte between tokens", validateStatus: 1, expected: "malformed") {
            lines(header, register) + Array(#"{"type":"transition","seq":2,"#.utf8) + [0x00]
                + Array(#""store":"S","action":"go","from":"a","to":"b","changed":true,"state":{"n":1}}"#.utf8) + [0x0A]
        },
        Case(name: "NUL bytes only", validateStatus: 2, expected: "not-a-trace") {
            [UInt8](repeating: 0, count: 4096)
        },
        Case(name: "a PNG image", validateStatus: 2, expected: "not-a-trace") {
            [
                0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
                0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89,
            ]
        },
        Case(name: "/dev/null", validateStatus: 2, expected: "is a character device that gave no bytes") { nil },
        Case(name: "a header alone", validateStatus: 0, expected: nil) { lines(header) },
        Case(name: "a header without its newline", validateStatus: 0, expected: nil) { Array(header.utf8) },
        Case(name: "CRLF lines", validateStatus: 0, expected: nil) {
            Array([header, register, transition].joined(separator: "\r\n").utf8) + [0x0D, 0x0A]
        },
        Case(name: "an empty file", validateStatus: 2, expected: "not-a-trace") { [] },
    ]

    @Test(arguments: cases)
    func everyCommandEndsWithAStatusAndAMessage(_ hostile: Case) throws {
        let folder = try HostileFolder()
        let path: String
        if let contents = hostile.contents() {
            path = folder.path("hostile.jsonl")
            try Data(contents).write(to: URL(fileURLWithPath: path))
        } else {
            path = "/dev/null"
        }
        let validate = try InspectorRun(["validate", path], in: folder)
        #expect(validate.status == hostile.validateStatus, "\(hostile.name): \(validate)")
        if let expected = hostile.expected {
            #expect((validate.out + validate.err).contains(expected), "\(hostile.name): \(validate)")
        } else {
            #expect(validate.out.contains("0 errors, 0 warnings"), "\(hostile.name): \(validate)")
        }
        for arguments in Self.commands(on: path, folder: folder) {
            let run = try InspectorRun(arguments.command, input: arguments.input, in: folder)
            run.expectOrderlyEnd(hostile.name)
            if hostile.validateStatus == 2 {
                #expect(run.status == 2, "\(hostile.name): \(run)")
            }
        }
    }

    @Test func aDirectoryIsAClearError() throws {
        let folder = try HostileFolder()
        let directory = folder.path("traces.jsonl")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let validate = try InspectorRun(["validate", directory], in: folder)
        validate.expectOrderlyEnd("an empty directory")
        #expect(validate.status == 2, "\(validate)")
        for arguments in Self.commands(on: directory, folder: folder) {
            let run = try InspectorRun(arguments.command, input: arguments.input, in: folder)
            run.expectOrderlyEnd("a directory")
            #expect(run.status == 2, "\(run)")
            #expect(run.err.contains("directory"), "\(run)")
        }
    }

    @Test func aFileThatGrowsWhileItIsReadIsReadAsItWas() throws {
        let folder = try HostileFolder()
        let path = folder.path("growing.jsonl")
        try Data(Self.lines(Self.header, Self.register)).write(to: URL(fileURLWithPath: path))
        let writer = GrowingWriter(path: path)
        writer.start()
        defer { writer.stop() }
        for round in 0..<3 {
            let validate = try InspectorRun(["validate", path], in: folder)
            validate.expectOrderlyEnd("growing, round \(round)")
            // Lines are whole when written, but the reader may stop in the middle of one: at
            // most a `truncated` warning, never an error.
            #expect(validate.status == 0, "round \(round): \(validate)")
            for arguments in Self.commands(on: path, folder: folder) {
                try InspectorRun(arguments.command, input: arguments.input, in: folder).expectOrderlyEnd(
                    "growing, round \(round)")
            }
        }
        #expect(writer.stop() > 0, "the writer appended nothing while the commands ran")
    }

    static let hostileText =
        "\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31m\u{90}q\u{9D}\u{7F}\u{85}\u{2028}\u{202E}txt.exe\u{2066}\u{200B}\u{FEFF}\u{2060}"
    static let hostileStore = "Store\u{1B}[31m\u{9B}"

    /// A trace whose app name, store name, action names, keys and values hold ESC sequences,
    /// BEL, DEL and C1 controls (U+009B is a one-byte CSI on many terminals).
    static func recordEscapes(to path: String) throws {
        let recorder = try TraceRecorder(path: path, app: "Esc\u{1B}[5mApp", machines: [:])
        let store = Store(initialState: ["title": "plain"], name: hostileStore, recorder: recorder)
        store.send("rename\u{1B}[0m\u{9B}") { $0["title"] = hostileText }
        store.send("add\u{07}") { $0["note\u{1B}[1m\u{9B}"] = hostileText }
    }

    /// Whether `bytes` hold a raw ESC, BEL, DEL or C1 control (two bytes in UTF-8: C2 80 … C2 9F),
    /// a bidirectional override or isolate, or a zero-width character.
    static func controlCharacter(in bytes: [UInt8]) -> String? {
        if bytes.contains(0x1B) { return "ESC" }
        if bytes.contains(0x07) { return "BEL" }
        if bytes.contains(0x7F) { return "DEL" }
        if zip(bytes, bytes.dropFirst()).contains(where: { $0 == 0xC2 && (0x80...0x9F).contains($1) }) {
            return "a C1 control"
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if let scalar = text.unicodeScalars.first(where: {
            (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
        }) {
            return "a bidirectional override U+\(String(scalar.value, radix: 16, uppercase: true))"
        }
        if let scalar = text.unicodeScalars.first(where: {
            (0x200B...0x200F).contains($0.value) || $0.value == 0x2060 || $0.value == 0xFEFF || $0.value == 0x2028
        }) {
            return "an invisible character U+\(String(scalar.value, radix: 16, uppercase: true))"
        }
        return nil
    }

    /// On a terminal, every command escapes what the trace holds: no escape-sequence injection
    /// from a recorded state. (In process, with a console that says it is a terminal.)
    @Test func controlCharactersFromAStateNeverReachATerminalRaw() throws {
        let folder = try HostileFolder()
        let path = folder.path("escapes.jsonl")
        try Self.recordEscapes(to: path)
        let commands: [[String]] = [
            ["validate", path], ["validate", "--format", "json", path], ["validate", "--format", "github", path],
            ["validate", "--format", "junit", path], ["show", path, "2"],
            ["show", path, "3", "--store", Self.hostileStore],
            ["show", path, "3", "--path", #"["\#(Self.hostileStore)"].nothing"#],
            ["show", path, "3", "--store", "\u{1B}[1mnone"],
            ["log", path], ["log", path, "--problems"], ["log", path, "--action", "\u{1B}"],
            ["diff", path, "3"], ["diff", path, "1", "3", "--format", "paths"],
            ["diff", path, "3", "--format", "json-patch"],
            ["diff", path, "3", "--store", "\u{9B}none"], ["graph", path], ["graph", path, "--format", "mermaid"],
        ]
        for arguments in commands {
            let out = TextStream()
            let err = TextStream()
            let console = Console(
                out: out, err: err, input: CommandInput(text: ""), isTerminal: true, errorIsTerminal: true,
                color: false, environment: [:])
            let status = Inspector.run(arguments, console: console)
            let shown = arguments.map { TTY.safe($0) }.joined(separator: " ")
            #expect((0...2).contains(status), "\(shown): status \(status)")
            for (stream, text) in [("standard output", out.text), ("standard error", err.text)] {
                let found = Self.controlCharacter(in: Array(text.utf8))
                #expect(found == nil, "raw \(found ?? "") on \(stream) of inspector \(shown): \(text.debugDescription)")
            }
        }
    }

    /// Not on a terminal, the human-readable commands still escape, and the JSON ones never
    /// write a raw ESC or BEL (JSON escapes them); the state stays intact, only escaped.
    @Test func controlCharactersFromAStateAreEscapedInEveryCommandsOutput() throws {
        let folder = try HostileFolder()
        let path = folder.path("escapes.jsonl")
        try Self.recordEscapes(to: path)
        for arguments in Self.commands(on: path, folder: folder) {
            let run = try InspectorRun(arguments.command, input: arguments.input, in: folder)
            run.expectOrderlyEnd("escape sequences")
            #expect(run.status == 0 || arguments.command.contains("--path"), "\(run)")
            // Even show and a JSON Patch, whose JSON could hold C1 controls raw: they are escaped
            // as \uXXXX, and the JSON stays valid.
            for (stream, bytes) in [("standard output", run.outBytes), ("standard error", run.errBytes)] {
                let found = Self.controlCharacter(in: bytes)
                #expect(found == nil, "raw \(found ?? "") on \(stream): \(run)")
            }
            if run.status == 0 && (arguments.command.first == "show" || arguments.command.contains("json-patch")) {
                #expect(throws: Never.self, "\(run)") { try JSONSerialization.jsonObject(with: Data(run.outBytes)) }
            }
        }
        let show = try InspectorRun(["show", path, "2"], in: folder)
        #expect(show.out.contains(#"\u001b]0;owned\u0007\u001b[2J"#), "\(show)")
    }

    /// Every command on `path`, with what `step` reads from standard input.
    static func commands(on path: String, folder: HostileFolder) -> [(command: [String], input: String)] {
        [
            (["validate", "--format", "json", path], ""),
            (
                ["step", path],
                "next\nnext\nlast\nstate\ndiff\nproblems\nprev\nfirst\ngoto 2\nfind S\nfind \u{1B}\nnonsense\nhelp\nquit\n"
            ),
            (["show", path, "1"], ""),
            (["show", path, "0", "--path", "S.n"], ""),
            (["log", path], ""),
            (["log", path, "--problems"], ""),
            (["diff", path, "1"], ""),
            (["diff", path, "0", "2", "--format", "json-patch"], ""),
            (["graph", path], ""),
            (["graph", path, "--format", "mermaid"], ""),
            (["report", path, "-o", folder.path("report.html")], ""),
            (["coverage", path], ""),
            (["coverage", path, "--format", "html", "-o", folder.path("coverage.html")], ""),
            (["compare", path, path], ""),
            (["compare", path, path, "--format", "json", "--ignore", "S[*].n"], ""),
            (["convert", path], ""),
        ]
    }
}

/// One run of the `inspector` binary in a child process: its exit status or the signal that
/// ended it, and everything it wrote. Output goes to files, so a large output cannot block the
/// child on a full pipe; a run longer than two minutes is killed and reported as a hang.
struct InspectorRun: CustomStringConvertible {
    static let timeout: TimeInterval = 120

    static var executable: URL {
        // The test bundle sits in the build folder, next to the products it depends on.
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("inspector").path),
            folder.path != "/"
        {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("inspector")
    }

    let arguments: [String]
    let status: Int32
    let signal: Int32?
    let hung: Bool
    let outBytes: [UInt8]
    let errBytes: [UInt8]
    var out: String { String(decoding: outBytes, as: UTF8.self) }
    var err: String { String(decoding: errBytes, as: UTF8.self) }

    init(_ arguments: [String], input: String = "", in folder: HostileFolder) throws {
        self.arguments = arguments
        let id = UUID().uuidString
        let inPath = folder.path("in-\(id)")
        let outPath = folder.path("out-\(id)")
        let errPath = folder.path("err-\(id)")
        try Data(input.utf8).write(to: URL(fileURLWithPath: inPath))
        defer { for path in [inPath, outPath, errPath] { try? FileManager.default.removeItem(atPath: path) } }
        let process = try ChildProcess(
            Self.executable.path, arguments, adding: ["NO_COLOR": "1"],
            input: .file(inPath), output: .file(outPath), errors: .file(errPath))
        let termination = process.wait(timeout: Self.timeout)
        hung = termination == .timedOut
        status = if case .exited(let code) = termination { code } else { -1 }
        signal = termination.signal
        outBytes = Array((try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data())
        errBytes = Array((try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data())
    }

    /// Checks that the run ended by itself with 0, 1 or 2, and with a message when it failed.
    func expectOrderlyEnd(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!hung, "\(what): hung: \(self)", sourceLocation: sourceLocation)
        #expect(signal == nil, "\(what): killed by signal \(signal ?? 0): \(self)", sourceLocation: sourceLocation)
        #expect((0...2).contains(status), "\(what): \(self)", sourceLocation: sourceLocation)
        if status == 2 {
            // A message on standard error, or validate's report of a file that is not a trace.
            let explained =
                err.hasPrefix("inspector: ") || (arguments.first == "validate" && out.contains("not-a-trace"))
            #expect(explained, "\(what): status 2 without a message: \(self)", sourceLocation: sourceLocation)
        }
    }

    var description: String {
        let shown = arguments.map { $0.count > 60 ? String($0.prefix(60)) + "…" : $0 }.joined(separator: " ")
        let state = hung ? "hung" : signal.map { "signal \($0)" } ?? "status \(status)"
        return
            "inspector \(shown) → \(state)\nstdout: \(out.prefix(400).debugDescription)\nstderr: \(err.prefix(400).debugDescription)"
    }
}

/// A fresh temporary folder, removed when the value is released.
final class HostileFolder {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

struct HostileFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Appends whole events to a trace on a thread of its own until stopped, as a recording app does:
/// a few thousand lines a second, and no more than `limit` bytes in all.
final class GrowingWriter: Sendable {
    private struct Progress {
        var lines = 0
        var stopping = false
    }

    private let path: String
    /// Shared between the writer's thread and the test's: guarded by a `Mutex`.
    private let progress = Mutex(Progress())
    private let done = DispatchSemaphore(value: 0)

    /// The most bytes the writer adds, so that a slow reader cannot make the file grow without end.
    /// At about half a megabyte a second it grows through the commands' three rounds; at 16 MB
    /// the debug build's commands spent 30 s reading it.
    static let limit = 4 << 20

    init(path: String) { self.path = path }

    func start() {
        Thread.detachNewThread { [self] in
            defer { done.signal() }
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            handle.seekToEndOfFile()
            var seq = 2
            var bytes = 0
            while !progress.withLock({ $0.stopping }), bytes < Self.limit {
                let state = String(repeating: "x", count: seq % 500)
                let (from, to) = seq % 2 == 0 ? ("a", "b") : ("b", "a")
                let line =
                    #"{"type":"transition","seq":\#(seq),"store":"S","action":"go","from":"\#(from)","to":"\#(to)","changed":true,"state":{"n":\#(seq),"s":"\#(state)"}}"#
                    + "\n"
                handle.write(Data(line.utf8))
                progress.withLock { $0.lines += 1 }
                bytes += line.utf8.count
                seq += 1
                usleep(500)
            }
            try? handle.close()
        }
    }

    /// Stops the writer and waits for it (once; later calls only count) and returns the lines
    /// it wrote.
    @discardableResult
    func stop() -> Int {
        let first = progress.withLock { progress in
            defer { progress.stopping = true }
            return !progress.stopping
        }
        if first { done.wait() }
        return progress.withLock { $0.lines }
    }
}
