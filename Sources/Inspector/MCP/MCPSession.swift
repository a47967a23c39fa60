import TraceJSON
import TraceReader

/// What the MCP server keeps between calls: the traces the client opened (indexed once, then
/// each question reads only the lines it needs) and each one's validation report, made when a
/// tool first needs it. One client, one thread: the server answers one message at a time.
final class MCPSession {
    /// An open trace and what has been worked out about it.
    final class OpenTrace {
        /// The path the client gave.
        let name: String
        let file: TraceFile
        /// The validation report, once asked for.
        var report: ValidationReport?

        /// `name` as an error message repeats it: quoted, escaped and short (`MCPExcerpt`).
        var shownName: String { MCPExcerpt.of(name) }

        init(name: String, file: TraceFile) {
            self.name = name
            self.file = file
        }
    }

    /// The most traces kept open; opening another closes the one used least recently.
    static let openLimit = 8
    /// The most problems a validation report lists (all are counted).
    static let listedProblems = 10_000

    let access: MCPFileAccess
    /// Where the Swift files that events name are (`--source-root`, the current directory by
    /// default), to give each source as `validate --source-root` does: `sourceFile`, the
    /// file's path in the repository, and `sourceLine`.
    let sourceRoot: SourceRoot
    /// By resolved path, most recently used last.
    private var traces: [(path: String, trace: OpenTrace)] = []

    init(access: MCPFileAccess, sourceRoot: SourceRoot = SourceRoot()) {
        self.access = access
        self.sourceRoot = sourceRoot
    }

    /// `object` (an event's JSON) with `sourceFile` and `sourceLine` after its `source`, when
    /// that source is found under the source root (`SourceRoot.locate`, as `validate` finds it).
    func locatingSource(_ object: JSONObject) -> JSONObject {
        guard let source = object["source"]?.stringValue, let found = sourceRoot.locate(source) else { return object }
        var located = JSONObject()
        for (key, value) in object {
            located.append(key: key, value: value)
            if key == "source" {
                located.append(key: "sourceFile", value: .string(found.path))
                located.append(key: "sourceLine", value: .number(String(found.line)))
            }
        }
        return located
    }

    /// The trace at `name` (a path the client gave), opened now if it is not open yet.
    func trace(_ name: String) throws(MCPToolError) -> OpenTrace {
        let resolved: String
        do {
            resolved = try access.check(name)
        } catch {
            throw .failed(error.message)
        }
        if let position = traces.firstIndex(where: { $0.path == resolved }) {
            let entry = traces.remove(at: position)
            traces.append(entry)
            return entry.trace
        }
        let file: TraceFile
        do {
            file = try TraceFile(path: resolved)
        } catch {
            throw .failed("\(MCPExcerpt.of(name)):\(error.line.map { "\($0):" } ?? "") \(error.message)")
        }
        let trace = OpenTrace(name: name, file: file)
        traces.append((resolved, trace))
        if traces.count > Self.openLimit { traces.removeFirst() }
        return trace
    }

    /// The resolved path of `name` when it may be read (for tools that read files whole).
    func checkedPath(_ name: String) throws(MCPToolError) -> String {
        do {
            return try access.check(name)
        } catch {
            throw .failed(error.message)
        }
    }

    /// The validation report of `trace`, made the first time it is asked for.
    func report(of trace: OpenTrace) throws(MCPToolError) -> ValidationReport {
        if let report = trace.report { return report }
        do {
            let report = try trace.file.validate(with: TraceValidator(maximumProblems: Self.listedProblems))
            trace.report = report
            return report
        } catch {
            throw .failed("\(trace.shownName): \(error.message)")
        }
    }

    /// The names of the open traces, most recently used last.
    var openNames: [String] { traces.map(\.trace.name) }
}
