import TraceReader

/// A transition's `stack` as a person reads it: folded to the app's own frames, innermost first.
///
/// A frame is the app's own when it names a Swift file (`function (File.swift:LINE)`) that is
/// under the source root, or, when the root holds no Swift file (the inspector run outside the
/// repository), any frame that names a file: frames without one are the system's and the
/// standard library's (`Collection.map<A, B>(_:)`). The recorder already leaves Rewind's own
/// frames out. Each run of frames that are not the app's becomes one `… N other frames`, in
/// place, so the order of the calls stays as it was; a stack with no frame of the app is shown
/// whole.
struct CallStackText {
    /// The frames as shown: the app's, and `… N other frames` for each run of others.
    let frames: [String]

    init(_ stack: [String], sourceRoot: SourceRoot) {
        let isApp = stack.map { frame in
            guard let file = Self.file(of: frame) else { return false }
            return sourceRoot.isEmpty || sourceRoot.containsFile(named: file)
        }
        guard isApp.contains(true) else {
            frames = stack
            return
        }
        var shown: [String] = []
        var others = 0
        for (frame, app) in zip(stack, isApp) {
            if app {
                if others > 0 { shown.append(Self.folded(others)) }
                others = 0
                shown.append(frame)
            } else {
                others += 1
            }
        }
        if others > 0 { shown.append(Self.folded(others)) }
        frames = shown
    }

    /// The most frames `line` shows.
    static let lineLimit = 5

    /// The first `lineLimit` frames on one line, innermost first:
    /// `a (A.swift:3) ← b (B.swift:9) ← … 2 other frames`, and `… N more` for the rest.
    var line: String {
        guard frames.count > Self.lineLimit else { return frames.joined(separator: " ← ") }
        return (frames.prefix(Self.lineLimit) + ["… \(frames.count - Self.lineLimit) more"]).joined(separator: " ← ")
    }

    /// `call stack: a (A.swift:3) ← …` (`line`, made terminal-safe): what follows a problem's
    /// message in `validate`'s text format and in `log --problems`; nil for a problem whose
    /// event recorded no stack.
    static func note(for problem: Problem, sourceRoot: SourceRoot) -> String? {
        guard !problem.stack.isEmpty else { return nil }
        return "call stack: " + TTY.safe(CallStackText(problem.stack, sourceRoot: sourceRoot).line)
    }

    /// `call stack:` and a line per frame shown, indented, for a pane or a command's output.
    var lines: [String] {
        ["call stack:"] + frames.map { "  \($0)" }
    }

    /// `File.swift` of `function (File.swift:LINE)`; nil for a frame without a file.
    static func file(of frame: String) -> Substring? {
        guard frame.hasSuffix(")"), let open = frame.lastIndex(of: "("), open > frame.startIndex,
            frame[frame.index(before: open)] == " "
        else { return nil }
        let location = frame[frame.index(after: open)..<frame.index(before: frame.endIndex)]
        guard let colon = location.lastIndex(of: ":"), Int(location[location.index(after: colon)...]) != nil else {
            return nil
        }
        let file = location[..<colon]
        return file.hasSuffix(".swift") ? file : nil
    }

    private static func folded(_ count: Int) -> String {
        count == 1 ? "… 1 other frame" : "… \(count) other frames"
    }
}
