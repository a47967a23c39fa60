#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `fstat`, `stat` or `lstat` tell about a file: its kind, size, permissions and owner.
package struct FileStatus: Equatable, Sendable {
    /// The kinds of file a path or a descriptor can name.
    package enum Kind: Equatable, Sendable {
        case regular, directory, pipe, characterDevice, blockDevice, socket, symbolicLink, other
    }

    /// The file's kind.
    package var kind: Kind
    /// Its size in bytes (meaningful for a regular file).
    package var size: Int
    /// Its permission bits (`0o600`).
    package var permissions: UInt32
    /// The user id of its owner.
    package var owner: UInt32
    /// The device and inode that identify the file, whatever its names.
    package var device: UInt64
    package var inode: UInt64

    package init(_ status: stat) {
        switch status.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFIFO: kind = .pipe
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFSOCK: kind = .socket
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        size = Int(status.st_size)
        permissions = UInt32(status.st_mode) & 0o7777
        owner = UInt32(status.st_uid)
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// Whether both name the same file.
    package func isSameFile(as other: FileStatus) -> Bool {
        device == other.device && inode == other.inode
    }
}
