@_spi(Reflection) import Swift

/// Which bytes of a value of a type hold its data, as 64-bit words with those bits set: what the
/// patch writer compares to tell an array element unchanged without encoding it (`ArrayElements`).
///
/// A value's memory also holds padding (the seven bytes after a `Bool` that an `Int` follows),
/// which a copy does not write: the copy-on-write copy of an array leaves there whatever its new
/// buffer held before, so two elements that are the same value rarely have the same bytes. The
/// stored members of structs and tuples are found with the standard library's reflection of
/// fields (`_forEachField`, the layout the compiler wrote, not the values), down to members that
/// are not structs or tuples, whose every byte counts (an enum's payload and tag, a reference, a
/// number). A type the reflection cannot read counts whole. Leaving out only bytes that no
/// member occupies, the mask never hides a difference; it may keep padding inside an enum's
/// payload, and then an unchanged element costs an encoding, not a wrong patch.
enum ElementMask {
    /// The masks of the types met so far, made once per type. Used under the recorder's lock.
    final class Cache {
        private var masks: [ObjectIdentifier: [UInt64]] = [:]

        func words(of type: Any.Type, stride: Int) -> [UInt64] {
            if let mask = masks[ObjectIdentifier(type)] { return mask }
            let mask = ElementMask.words(of: type, stride: stride)
            masks[ObjectIdentifier(type)] = mask
            return mask
        }
    }

    /// The mask of `type`, whose stride is `stride`: one word per eight bytes, rounded up.
    static func words(of type: Any.Type, stride: Int) -> [UInt64] {
        var bytes = [UInt8](repeating: 0, count: (stride + 7) / 8 * 8)
        mark(type, at: 0, in: &bytes, depth: 0)
        var words = [UInt64](repeating: 0, count: bytes.count / 8)
        for index in bytes.indices where bytes[index] != 0 {
            words[index / 8] |= 0xFF << UInt64(8 * (index % 8))
        }
        return words
    }

    /// Marks the bytes of `type`'s data, for a value at `offset`.
    private static func mark(_ type: Any.Type, at offset: Int, in bytes: inout [UInt8], depth: Int) {
        let size = sizeOf(type)
        if #available(macOS 10.15.4, iOS 13.4, watchOS 6.2, tvOS 13.4, *), depth < 16 {
            var fields: [(offset: Int, type: Any.Type, nested: Bool)] = []
            let read = _forEachField(of: type) { _, fieldOffset, fieldType, kind in
                fields.append((fieldOffset, fieldType, kind == .struct || kind == .tuple))
                return true
            }
            if read && !fields.isEmpty {
                for field in fields {
                    if field.nested {
                        mark(field.type, at: offset + field.offset, in: &bytes, depth: depth + 1)
                    } else {
                        for index in 0..<sizeOf(field.type) { bytes[offset + field.offset + index] = 0xFF }
                    }
                }
                return
            }
        }
        for index in 0..<size { bytes[offset + index] = 0xFF }
    }

    private static func sizeOf(_ type: Any.Type) -> Int {
        func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
        return size(type)
    }

    /// Whether the elements at `left` and `right` hold the same data under `mask`.
    @inline(__always)
    static func same(_ left: UnsafeRawPointer, _ right: UnsafeRawPointer, stride: Int, mask: [UInt64]) -> Bool {
        var offset = 0
        var word = 0
        while offset &+ 8 <= stride {
            let difference =
                left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                ^ right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if difference & mask[word] != 0 { return false }
            offset &+= 8
            word &+= 1
        }
        while offset < stride {
            let bit = UInt64(8 * (offset & 7))
            if (mask[word] >> bit) & 0xFF != 0
                && left.load(fromByteOffset: offset, as: UInt8.self)
                    != right.load(fromByteOffset: offset, as: UInt8.self)
            {
                return false
            }
            offset &+= 1
        }
        return true
    }
}
