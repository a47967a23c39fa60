import Recorder
@_spi(RewindInternals) internal import RewindSupport
import TraceJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file that pins a team's state machines and rules over time, `{"machines": {...}, "rules":
/// [...]}` (shared/TRACE_FORMAT.md), for `inspector validate --spec FILE`: its machines replace
/// the trace's, store by store, and its `rules`, when it has the key, replace the header's (`[]`
/// clears them), so that CI fails when the app records a machine other than the one the
/// repository declares. `machines` is required; other keys are ignored, so a trace's header line
/// is a spec too.
public enum SpecFile {
    /// What a spec file holds.
    public struct Contents: Sendable, Equatable {
        /// The machines, by store name.
        public var machines: [String: MachineSpec]
        /// The rules over time, in the order written; nil when the file has no `rules` key (the
        /// header's then apply).
        public var rules: [TraceRule]?

        /// Creates the contents of a spec file.
        public init(machines: [String: MachineSpec] = [:], rules: [TraceRule]? = nil) {
            self.machines = machines
            self.rules = rules
        }
    }

    /// The largest spec file read: 64 MiB.
    static let maximumSize = 64 << 20

    /// The machines of the spec file at `path`, by store name.
    /// - Throws: as `read(at:)`.
    public static func machines(at path: String) throws(ValidationFileError) -> [String: MachineSpec] {
        try read(at: path).machines
    }

    /// The machines and rules of the spec file at `path`.
    /// - Throws: `ValidationFileError` naming the file and what to change when it cannot be read,
    ///   is not JSON, or its machines or rules are not shaped as the format page says (naming the
    ///   rule).
    public static func read(at path: String) throws(ValidationFileError) -> Contents {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, .readOnly)
        } catch {
            throw ValidationFileError(path: path, message: TraceValidator.openFailure(error.code))
        }
        var bytes: [UInt8] = []
        while true {
            let count: Int
            do {
                count = try file.read(appendingTo: &bytes, count: 1 << 16)
            } catch {
                let message =
                    error.code == EISDIR ? "is a directory, not a spec file" : "cannot read: \(error.reason)"
                throw ValidationFileError(path: path, message: message)
            }
            if count == 0 { break }
            guard bytes.count <= maximumSize else {
                throw ValidationFileError(
                    path: path,
                    message: "is larger than 64 MiB; a spec file holds only {\"machines\": {...}, \"rules\": [...]}")
            }
        }
        return try contents(of: bytes, file: path)
    }

    /// The machines of a spec file's contents; `file` names it in errors.
    public static func machines(in bytes: some Collection<UInt8>, file: String) throws(ValidationFileError) -> [String:
        MachineSpec]
    {
        try contents(of: bytes, file: file).machines
    }

    /// The machines and rules of a spec file's contents; `file` names it in errors.
    /// - Throws: `ValidationFileError` as `read(at:)` says.
    public static func contents(of bytes: some Collection<UInt8>, file: String) throws(ValidationFileError)
        -> Contents
    {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw ValidationFileError(
                path: file,
                message:
                    "not JSON (line \(error.line), column \(error.column): \(error.message)); a spec file is {\"machines\": {...}, \"rules\": [...]}"
            )
        }
        guard let machinesValue = value["machines"] else {
            throw ValidationFileError(
                path: file,
                message:
                    "expected an object {\"machines\": {STORE: {\"initial\": CASE, \"transitions\": {...}}}}, shaped like a trace header's machines"
            )
        }
        var contents = Contents()
        do {
            contents.machines = try TraceHeader.parseMachines(machinesValue, context: "\"machines\"").machines
        } catch {
            throw ValidationFileError(path: file, message: error.message)
        }
        if let rulesValue = value["rules"] {
            do {
                contents.rules = try TraceRule.parseList(rulesValue)
            } catch {
                throw ValidationFileError(path: file, message: error.message)
            }
        }
        return contents
    }
}
