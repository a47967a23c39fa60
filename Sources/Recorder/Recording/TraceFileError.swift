#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A trace file that could not be opened, written or synchronized.
public struct TraceFileError: Error, Sendable, CustomStringConvertible {
    /// The file's path.
    public var path: String
    /// What was being done: "create", "replace", "write", "synchronize".
    public var operation: String
    /// The system's error number, or ``notAFile``.
    public var code: Int32

    /// The `code` of a path that names a device, pipe, socket or folder, which a sink never
    /// writes a trace to nor removes (not a system error number: those are positive).
    public static let notAFile: Int32 = -1

    /// Creates an error for `operation` on `path` from the system's error number.
    public init(path: String, operation: String, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    /// What went wrong with which file, and what to do about it.
    public var description: String {
        if code == Self.notAFile {
            return
                "\(path): cannot create the trace there: it is a device, pipe, socket or folder, not a file (replacing removes only a file); choose the path of a file"
        }
        let reason = String(cString: strerror(code))
        switch code {
        case EEXIST:
            return "\(path): cannot create the trace: the file already exists (pass replacing: true to overwrite it)"
        case ENOSPC, EDQUOT, EFBIG:
            return "\(path): cannot \(operation) the trace: \(reason); free space or cap the trace's size"
        case EACCES, EROFS, EPERM:
            return "\(path): cannot \(operation) the trace: \(reason); choose a writable folder"
        default:
            return "\(path): cannot \(operation) the trace: \(reason)"
        }
    }
}
