import Recorder

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file that pins a team's state machines, `{"machines": {...}}` shaped like a trace header's
/// (shared/TRACE_FORMAT.md), for `inspector validate --spec FILE`: its machines replace the
/// trace's, store by store, so that CI fails when the app records a machine other than the one
/// the repository declares. Other keys are ignored, so a trace's header line is a spec too.
public enum SpecFile {
    /// The largest spec file read: 64 MiB.
    static let maximumSize = 64 << 20

    /// The machines of the spec file at `path`, by store name.
    /// - Throws: `ValidationFileError` naming the file and what to change when it cannot be read,
    ///   is not JSON, or its machines are not shaped as the format page says.
    public static func machines(at path: String) throws(ValidationFileError) -> [String: MachineSpec] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw ValidationFileError(path: path, message: TraceValidator.openFailure(code))
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                let message =
                    code == EISDIR
                    ? "is a directory, not a spec file" : "cannot read: \(String(cString: strerror(code)))"
                throw ValidationFileError(path: path, message: message)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
            guard bytes.count <= maximumSize else {
                throw ValidationFileError(
                    path: path, message: "is larger than 64 MiB; a spec file holds only {\"machines\": {...}}")
            }
        }
        return try machines(in: bytes, file: path)
    }

    /// The machines of a spec file's contents; `file` names it in errors.
    public static func machines(in bytes: some Collection<UInt8>, file: String) throws(ValidationFileError) -> [String:
        MachineSpec]
    {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw ValidationFileError(
                path: file,
                message:
                    "not JSON (line \(error.line), column \(error.column): \(error.message)); a spec file is {\"machines\": {...}}"
            )
        }
        guard let machinesValue = value["machines"] else {
            throw ValidationFileError(
                path: file,
                message:
                    "expected an object {\"machines\": {STORE: {\"initial\": CASE, \"transitions\": {...}}}}, shaped like a trace header's machines"
            )
        }
        do {
            return try TraceHeader.parseMachines(machinesValue, context: "\"machines\"").machines
        } catch {
            throw ValidationFileError(path: file, message: error.message)
        }
    }
}
