import Foundation
import TestSupport
import Testing

/// Drives `inspector step` in a real terminal, as a person would: tmux runs it, `send-keys`
/// types, `capture-pane` reads the screen. CI installs tmux (.ci/run).
@Suite(.serialized) struct FullScreenStepTests {
    static var inspectorPath: String {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("inspector").path),
            folder.path != "/"
        {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("inspector").path
    }

    struct Tmux {
        let session = "rewind-test-\(UUID().uuidString.prefix(8))"

        /// Runs a tmux command. Its output is read only when asked for: a command that starts
        /// the tmux server hands the server its standard output, which then stays open.
        ///
        /// Each `Tmux` has its own server (`-L`, a socket named after the session). With one
        /// shared server, a test's `kill-session` could end the server while a test running
        /// beside it was starting its session, which then never appeared: CI saw an empty
        /// screen for 30 s. A `new-session` that fails is recorded at once.
        @discardableResult
        func run(_ arguments: [String], output: Bool = false) throws -> String {
            let tmux = try ChildProcess("tmux", ["-L", session] + arguments, output: output ? .pipe : .null)
            let outcome = tmux.communicate(timeout: 30)
            if outcome.termination == .timedOut { throw ChildProcessError.timedOut(tmux.commandLine) }
            if arguments.first == "new-session", outcome.termination != .exited(0) {
                Issue.record("\(tmux.commandLine) ended \(outcome.termination)")
            }
            return outcome.outputText
        }

        func screen() throws -> String { try run(["capture-pane", "-p", "-t", session], output: true) }

        func keys(_ keys: String...) throws { try run(["send-keys", "-t", session] + keys) }

        /// Waits (up to 30 s: builds and tests share a loaded machine) until the screen satisfies
        /// `condition`; returns the last screen.
        func wait(for what: String, _ condition: (String) -> Bool) throws -> String {
            var last = ""
            for _ in 0..<600 {
                last = try screen()
                if condition(last) { return last }
                Thread.sleep(forTimeInterval: 0.05)
            }
            Issue.record("timed out waiting for \(what); screen was:\n\(last)")
            return last
        }
    }

    static var hasTmux: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")
            || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/tmux")
    }

    @Test func aPersonStepsThroughATraceWithTheKeyboard() throws {
        try #require(Self.hasTmux, "tmux is not installed: apt-get install -y tmux (.ci/run does)")
        try #require(
            FileManager.default.fileExists(atPath: Self.inspectorPath), "build the inspector first: swift build")
        let trace = try RecordedTrace()
        let tmux = Tmux()
        try tmux.run([
            "new-session", "-d", "-s", tmux.session, "-x", "110", "-y", "32",
            "\(Self.inspectorPath) step \(trace.path); echo EXITED-$?; sleep 30",
        ])
        defer { _ = try? tmux.run(["kill-session", "-t", tmux.session]) }

        var screen = try tmux.wait(for: "the first screen, validated") {
            $0.contains("step 0 of 7") && !$0.contains("validating")
        }
        #expect(screen.contains("Rewind · Shop"))

        try tmux.keys("Right", "Right", "l")
        screen = try tmux.wait(for: "step 3") {
            $0.contains("step 3 of 7") && $0.contains("what step 3 changed: CatalogStore.toLoading")
        }

        try tmux.keys("]")
        // A frame reaches tmux in pieces; wait for the whole of what is checked.
        screen = try tmux.wait(for: "the illegal step") {
            $0.contains("step 4 of 7") && $0.contains("illegal transition loading")
        }
        #expect(screen.contains("✖ illegal"))
        #expect(screen.contains("illegal transition loading → loading"))

        try tmux.keys("6", "Enter")
        screen = try tmux.wait(for: "a jump to step 6") { $0.contains("step 6 of 7") }

        try tmux.keys("Tab")
        screen = try tmux.wait(for: "the app state") {
            $0.contains("the app state at step 6") && $0.contains("\"CartStore\"")
        }
        #expect(screen.contains("\"CartStore\""))

        try tmux.keys("Home")
        screen = try tmux.wait(for: "step 0") { $0.contains("step 0 of 7") }
        try tmux.keys("/", "l", "o", "a", "d", "Enter")
        screen = try tmux.wait(for: "a search") { $0.contains("step 3 of 7") }

        try tmux.keys("End")
        screen = try tmux.wait(for: "the last step") { $0.contains("step 7 of 7") }

        try tmux.keys("q")
        screen = try tmux.wait(for: "the program to exit") { $0.contains("EXITED-0") }
        #expect(!screen.contains("step 7 of 7"))  // back on the main screen
    }

    /// Starts `inspector step` on `trace` in a `columns` × `rows` terminal; ends the session
    /// when the returned value is dropped.
    static func start(_ trace: String, columns: Int, rows: Int, options: String = "") throws -> Tmux {
        try #require(Self.hasTmux, "tmux is not installed: apt-get install -y tmux (.ci/run does)")
        try #require(
            FileManager.default.fileExists(atPath: Self.inspectorPath), "build the inspector first: swift build")
        let tmux = Tmux()
        try tmux.run([
            "new-session", "-d", "-s", tmux.session, "-x", "\(columns)", "-y", "\(rows)",
            "\(Self.inspectorPath) step \(trace) \(options); echo EXITED-$?; sleep 30",
        ])
        return tmux
    }

    /// Arguments show in the list and the event pane, and `/` finds them (issue 20, item 2).
    @Test(arguments: [(80, 24), (200, 60)])
    func argumentsAreShownAndFound(columns: Int, rows: Int) throws {
        let trace = try RecordedTrace()
        let tmux = try Self.start(trace.path, columns: columns, rows: rows)
        defer { _ = try? tmux.run(["kill-session", "-t", tmux.session]) }
        _ = try tmux.wait(for: "the first screen, validated") {
            $0.contains("step 0 of 7") && !$0.contains("validating")
        }
        try tmux.keys("/", "t", "i", "t", "l", "e", ":", " ", "\"", "E", "Enter")
        let screen = try tmux.wait(for: "the search for Emma") {
            $0.contains("step 7 of 7") && $0.contains(#"args: title: "Emma""#)
        }
        // In the list, after the from → to column (issue 36: what is read first comes first).
        // At 80 columns they are what is cut first.
        #expect(
            screen.split(separator: "\n").contains {
                $0.contains(" add ") && (columns == 80 || $0.contains(#"title: "Dune""#))
            }, "\(screen)")
        #expect(screen.split(separator: "\n").allSatisfy { $0.count <= columns })
        try tmux.keys("q")
    }

    /// On opening, the status line counts the problems and names `]`; the key hints are on the
    /// last line; `?` lists every key and any key goes back (issue 20, item 6).
    @Test(arguments: [(80, 24), (200, 60)])
    func helpHintsAndTheProblemCount(columns: Int, rows: Int) throws {
        let trace = try RecordedTrace()
        let tmux = try Self.start(trace.path, columns: columns, rows: rows)
        defer { _ = try? tmux.run(["kill-session", "-t", tmux.session]) }
        var screen = try tmux.wait(for: "the problem count") { $0.contains("1 problem (1 error): ] goes to it") }
        let last = screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(last?.contains("? help  q quit") == true)
        try tmux.keys("?")
        screen = try tmux.wait(for: "the help screen") { $0.contains("the next step (of those the list shows)") }
        if rows < 40 {
            #expect(screen.contains("PgUp PgDn scroll"))
            try tmux.keys("PageDown", "PageDown")
        }
        screen = try tmux.wait(for: "the end of the help") { $0.contains("this help (any key closes it)") }
        #expect(screen.contains("jump to the step that last changed the picked value"))
        try tmux.keys("q")
        screen = try tmux.wait(for: "the step again") { $0.contains("step 0 of 7") && $0.contains("? help") }
        try tmux.keys("]")
        screen = try tmux.wait(for: "the illegal step's message") {
            $0.contains("step 4 of 7") && $0.contains("[illegal]")
        }
        try tmux.keys("q")
        _ = try tmux.wait(for: "the program to exit") { $0.contains("EXITED-0") }
    }

    /// `!` lists only the steps with a problem, `F` every one again, `N` finds backward
    /// (issue 20, item 5).
    @Test(arguments: [(80, 24), (200, 60)])
    func filtersAndFindingBackward(columns: Int, rows: Int) throws {
        let trace = try RecordedTrace()
        let tmux = try Self.start(trace.path, columns: columns, rows: rows)
        defer { _ = try? tmux.run(["kill-session", "-t", tmux.session]) }
        _ = try tmux.wait(for: "the first screen, validated") { $0.contains("1 problem") }
        try tmux.keys("!")
        var screen = try tmux.wait(for: "the problems filter") { $0.contains("filter: with problems") }
        #expect(!screen.contains("register"))
        try tmux.keys("Right")
        screen = try tmux.wait(for: "the only step with a problem") {
            $0.contains("step 4 of 7") && $0.contains("filter: with problems")
        }
        #expect(!screen.contains("Fixtures.swift:61"))  // the add steps are not listed
        try tmux.keys("F", "/", "E", "m", "m", "a", "Enter")
        _ = try tmux.wait(for: "Emma, first in the catalog's state") { $0.contains("step 5 of 7") }
        try tmux.keys("/", "Enter")
        _ = try tmux.wait(for: "Emma, then in the arguments") { $0.contains("step 7 of 7") }
        try tmux.keys("N")
        _ = try tmux.wait(for: "Emma, backward") { $0.contains("step 5 of 7") }
        try tmux.keys("q")
    }

    /// On the illegal step: how the store got there, `w` to the step that set its case, `b`
    /// back along the store (issue 20, item 1).
    @Test(arguments: [(80, 24), (200, 60)])
    func howDidWeGetHere(columns: Int, rows: Int) throws {
        let trace = try RecordedTrace()
        let tmux = try Self.start(trace.path, columns: columns, rows: rows)
        defer { _ = try? tmux.run(["kill-session", "-t", tmux.session]) }
        _ = try tmux.wait(for: "the first screen, validated") { $0.contains("1 problem") }
        try tmux.keys("]")
        _ = try tmux.wait(for: "how CatalogStore got to loading") {
            $0.contains("step 4 of 7") && $0.contains("How CatalogStore got to loading")
        }
        try tmux.keys("w")
        _ = try tmux.wait(for: "the step that set loading") {
            $0.contains("step 3 of 7") && $0.contains("entered loading here")
        }
        try tmux.keys("b")
        _ = try tmux.wait(for: "the store's register") { $0.contains("step 1 of 7") }
        try tmux.keys("q")
    }

    /// On an illegal step the detail shows the call stack that sent the action, the fixture's
    /// own frames first (issue 36).
    @Test func theIllegalStepShowsTheCallStackThatSentIt() throws {
        let trace = try RecordedTrace()
        let tmux = try Self.start(trace.path, columns: 160, rows: 50)
        defer { _ = try? tmux.run(["kill-session", "-t", tmux.session]) }
        _ = try tmux.wait(for: "the first screen, validated") { $0.contains("1 problem") }
        try tmux.keys("]")
        _ = try tmux.wait(for: "the stack under the problem") {
            $0.contains("step 4 of 7") && $0.contains("call stack:")
                && $0.contains("CatalogStore.toLoading() (Fixtures.swift:")
        }
        try tmux.keys("q")
    }

    /// A machine's case change reads as Swift: `.loading → .loaded`, the payload beneath
    /// (issue 20, item 8).
    @Test(arguments: [(80, 24), (200, 60)])
    func aCaseChangeReadsAsSwift(columns: Int, rows: Int) throws {
        let trace = try RecordedTrace()
        let tmux = try Self.start(trace.path, columns: columns, rows: rows)
        defer { _ = try? tmux.run(["kill-session", "-t", tmux.session]) }
        _ = try tmux.wait(for: "the first screen") { $0.contains("step 0 of 7") }
        try tmux.keys("5", "Enter")
        let screen = try tmux.wait(for: "the case change") {
            $0.contains("step 5 of 7") && $0.contains("CatalogStore: .loading → .loaded") && $0.contains("payload:")
        }
        #expect(!screen.contains("loading: {}"))
        try tmux.keys("q")
    }

    @Test func ctrlCRestoresTheTerminal() throws {
        try #require(Self.hasTmux, "tmux is not installed: apt-get install -y tmux (.ci/run does)")
        let trace = try RecordedTrace()
        let tmux = Tmux()
        try tmux.run([
            "new-session", "-d", "-s", tmux.session, "-x", "100", "-y", "30",
            "\(Self.inspectorPath) step \(trace.path); stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo | tr '\\n' ' '; echo EXITED-$?; sleep 30",
        ])
        defer { _ = try? tmux.run(["kill-session", "-t", tmux.session]) }
        _ = try tmux.wait(for: "the first screen") { $0.contains("step 0 of 7") }
        try tmux.keys("C-c")
        let screen = try tmux.wait(for: "the program to exit") { $0.contains("EXITED-") }
        #expect(screen.contains("icanon echo"))  // the shell's terminal is cooked again
    }

    @Test func resizingRedraws() throws {
        try #require(Self.hasTmux, "tmux is not installed: apt-get install -y tmux (.ci/run does)")
        let trace = try RecordedTrace()
        let tmux = Tmux()
        try tmux.run([
            "new-session", "-d", "-s", tmux.session, "-x", "100", "-y", "30",
            "\(Self.inspectorPath) step \(trace.path)",
        ])
        defer { _ = try? tmux.run(["kill-session", "-t", tmux.session]) }
        _ = try tmux.wait(for: "the first screen") { $0.contains("step 0 of 7") }
        try tmux.run(["resize-window", "-t", tmux.session, "-x", "70", "-y", "20"])
        let screen = try tmux.wait(for: "a redraw at 20 rows") { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count >= 20 && lines[18].contains("step 0 of 7") && lines[19].contains("? help")
        }
        #expect(screen.split(separator: "\n").allSatisfy { $0.count <= 70 })
    }

    /// Ctrl-Z in a shell with job control: the shell's screen and cursor come back while the view
    /// is stopped, and `fg` brings the view back, drawn again. `kill -TSTP` does the same.
    @Test(arguments: ["C-z", "kill"])
    func stoppingRestoresTheTerminalAndContinuingRedraws(how: String) throws {
        try #require(Self.hasTmux, "tmux is not installed: apt-get install -y tmux (.ci/run does)")
        let trace = try RecordedTrace()
        let tmux = Tmux()
        try tmux.run([
            "new-session", "-d", "-s", tmux.session, "-x", "100", "-y", "30", "env PS1='$ ' bash --norc --noprofile -i",
        ])
        defer { _ = try? tmux.run(["kill-session", "-t", tmux.session]) }
        func mode() throws -> String {
            try tmux.run(["display-message", "-p", "-t", tmux.session, "#{alternate_on} #{cursor_flag}"], output: true)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        try tmux.keys("\(Self.inspectorPath) step \(trace.path) --at 3", "Enter")
        _ = try tmux.wait(for: "the first screen") { $0.contains("step 3 of 7") && !$0.contains("validating") }
        #expect(try mode() == "1 0")  // the alternate screen, the cursor hidden
        if how == "kill" {
            let pid =
                try ChildProcess.run("pgrep", ["-f", "inspector step \(trace.path)"]).outputText
                .split(separator: "\n").first.map(String.init) ?? ""
            try #require(!pid.isEmpty)
            _ = try ChildProcess.run("kill", ["-TSTP", pid])
        } else {
            try tmux.keys("C-z")
        }
        var screen = try tmux.wait(for: "the shell, the view stopped") { $0.contains("Stopped") }
        #expect(try mode() == "0 1")  // the main screen, the cursor shown
        #expect(!screen.contains("step 3 of 7"))
        try tmux.keys("stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo | tr '\\n' ' '; echo", "Enter")
        screen = try tmux.wait(for: "the terminal's modes") { $0.contains("icanon echo") }
        try tmux.keys("fg", "Enter")
        screen = try tmux.wait(for: "the view drawn again") {
            $0.contains("step 3 of 7") && $0.contains("Rewind · Shop")
        }
        #expect(try mode() == "1 0")
        try tmux.keys("Right")
        _ = try tmux.wait(for: "keys work again") { $0.contains("step 4 of 7") }
        try tmux.keys("q")
    }

    /// A crash (a trap is SIGILL or SIGTRAP) still puts the terminal back before the process ends.
    @Test(arguments: ["ILL", "SEGV", "TRAP"])
    func aCrashRestoresTheTerminal(signal: String) throws {
        try #require(Self.hasTmux, "tmux is not installed: apt-get install -y tmux (.ci/run does)")
        let trace = try RecordedTrace()
        let tmux = Tmux()
        try tmux.run([
            "new-session", "-d", "-s", tmux.session, "-x", "100", "-y", "30",
            "SWIFT_BACKTRACE=enable=no \(Self.inspectorPath) step \(trace.path); echo EXITED-$?; sleep 30",
        ])
        defer { _ = try? tmux.run(["kill-session", "-t", tmux.session]) }
        _ = try tmux.wait(for: "the first screen") { $0.contains("step 0 of 7") }
        _ = try ChildProcess.run("pkill", ["-\(signal)", "-f", "^\(Self.inspectorPath) step \(trace.path)"])
        _ = try tmux.wait(for: "the program to end") { $0.contains("EXITED-") }
        let mode = try tmux.run(
            ["display-message", "-p", "-t", tmux.session, "#{alternate_on} #{cursor_flag}"], output: true)
        #expect(mode.trimmingCharacters(in: .whitespacesAndNewlines) == "0 1")
    }
}
