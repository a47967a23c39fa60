#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// File names are bytes, not text: a name on Linux may be any bytes but `/` and NUL, and one
/// that is not valid UTF-8 must still be opened, listed and named in messages. The package
/// keeps paths as `String`s that hold such bytes losslessly, and turns them back into the exact
/// bytes at every system call (`FileDescriptor.open`, `SystemCalls`).
///
/// The encoding: valid UTF-8 is the text it spells; a byte that is not part of valid UTF-8
/// (0x80–0xFF) is the private-use scalar U+10FF00 + byte (U+10FF80–U+10FFFF). So that a name
/// that really holds one of those scalars stays unambiguous, its four bytes are encoded the
/// same way, one scalar per byte. Every path from the command line (`arguments()`) and from a
/// directory (`SystemCalls.directoryEntries`) is made with `string(_:)`. `TerminalText.safe`
/// shows an encoded byte as `\xFF`.
package enum PathName {
    /// The first scalar that stands for a byte.
    static let firstByteScalar: UInt32 = 0x10FF80

    /// The path that `bytes` spell (see the type's documentation).
    package static func string(_ bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
            if length > 0, index + length <= bytes.count {
                let sequence = bytes[index..<(index + length)]
                var decoder = UTF8()
                var iterator = sequence.makeIterator()
                if case .scalarValue(let scalar) = decoder.decode(&iterator),
                    Array(String(scalar).utf8) == Array(sequence)
                {
                    if scalar.value < firstByteScalar {
                        result.append(scalar)
                    } else {
                        // A real U+10FF80…U+10FFFF: one scalar per byte, to stay unambiguous.
                        for byte in sequence { result.append(byteScalar(byte)) }
                    }
                    index += length
                    continue
                }
            }
            result.append(byteScalar(lead))
            index += 1
        }
        return String(result)
    }

    /// The bytes `path` stands for.
    package static func bytes(_ path: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if let byte = byte(of: scalar) {
                bytes.append(byte)
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// The byte `scalar` stands for, when it stands for one.
    package static func byte(of scalar: Unicode.Scalar) -> UInt8? {
        scalar.value >= firstByteScalar ? UInt8(truncatingIfNeeded: scalar.value - 0x10FF00) : nil
    }

    /// Calls `body` with `path` as the NUL-terminated bytes a system call takes.
    package static func withCString<Result>(
        _ path: String, _ body: (UnsafePointer<CChar>) throws -> Result
    ) rethrows -> Result {
        // The common case: a path with no encoded byte is its own UTF-8.
        guard path.unicodeScalars.contains(where: { $0.value >= firstByteScalar }) else {
            return try path.withCString(body)
        }
        var bytes = self.bytes(path)
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// The program's arguments (without its name), each exactly as given, as paths: what
    /// `CommandLine.arguments` would be, except that bytes that are not UTF-8 are kept instead
    /// of being replaced by U+FFFD.
    package static func arguments() -> [String] {
        let count = Int(CommandLine.argc)
        return (1..<max(1, count)).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return "" }
            return string(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
        }
    }

    private static func byteScalar(_ byte: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(0x10FF00 + UInt32(byte))!
    }
}
