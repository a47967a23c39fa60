#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file with the given bytes in a new temporary folder, removed with it when released.
final class ValidationTemporaryFile {
    let folder: String
    let path: String

    init(_ bytes: [UInt8], name: String = "trace.jsonl") throws {
        var template = Array("/tmp/rewind-validation-XXXXXX".utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw ValidationTestError("cannot create a temporary folder")
        }
        folder = String(cString: created)
        path = folder + "/" + name
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw ValidationTestError("cannot create \(path)") }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw ValidationTestError("cannot write \(path)") }
    }

    deinit {
        if let directory = opendir(folder) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { unlink(folder + "/" + name) }
            }
            closedir(directory)
        }
        rmdir(folder)
    }
}

struct ValidationTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
