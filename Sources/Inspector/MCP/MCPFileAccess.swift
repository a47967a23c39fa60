@_spi(RewindInternals) internal import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which files the MCP server may read: regular files under the folders it was started with
/// (`--allow DIR`, or the current directory). A path is resolved first (symbolic links, `.` and
/// `..`, with `realpath`), and the resolved path is what is checked and opened, so no link or
/// `../` leads a client out of those folders, and nothing but a regular file (no device, no pipe
/// that could block the server) is read.
struct MCPFileAccess {
    /// The allowed folders, resolved.
    let roots: [String]

    /// Access to `folders`, each resolved; a folder that does not exist is an error.
    init(folders: [String]) throws(MCPFileAccessError) {
        var roots: [String] = []
        for folder in folders {
            guard let resolved = Self.resolve(folder) else {
                throw MCPFileAccessError(message: "--allow \(folder): no such folder; give a folder that exists")
            }
            guard (try? SystemCalls.status(ofPath: resolved).kind) == .directory else {
                throw MCPFileAccessError(
                    message: "--allow \(folder): not a folder; give the folder that holds the traces")
            }
            roots.append(resolved)
        }
        self.roots = roots
    }

    /// The resolved path of `path` (relative to the current directory), when it may be read;
    /// otherwise an error that says why and which folders may be read.
    func check(_ path: String) throws(MCPFileAccessError) -> String {
        guard !path.isEmpty else { throw MCPFileAccessError(message: "the path is empty; give a trace file's path") }
        let shown = MCPExcerpt.of(path)
        guard let resolved = Self.resolve(path) else {
            throw MCPFileAccessError(
                message: "\(shown): no such file; paths are relative to the server's folder (\(roots.first ?? "?"))")
        }
        guard roots.contains(where: { Self.isInside(resolved, $0) }) else {
            throw MCPFileAccessError(
                message:
                    "\(shown): outside the folders this server may read (\(roots.joined(separator: ", "))); start it with --allow DIR to let it read another folder"
            )
        }
        guard let status = try? SystemCalls.status(ofPath: resolved) else {
            throw MCPFileAccessError(message: "\(shown): cannot be read")
        }
        switch status.kind {
        case .regular: return resolved
        case .directory:
            throw MCPFileAccessError(message: "\(shown): is a folder; give one trace file in it (*.jsonl)")
        default:
            throw MCPFileAccessError(message: "\(shown): not a regular file; only trace files are read")
        }
    }

    /// Whether `path` is `root` or inside it (both resolved).
    static func isInside(_ path: String, _ root: String) -> Bool {
        if path == root { return true }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix)
    }

    /// `path` with its links, `.` and `..` resolved, absolute; nil when it does not exist.
    static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Why the MCP server will not read a file: a message that names the path and what to do.
struct MCPFileAccessError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
