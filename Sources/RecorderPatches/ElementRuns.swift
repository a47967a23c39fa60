#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many elements two arrays have the same, one after another, read from their memory: the
/// one place where the patch writer reads elements' bytes (`ElementView` gives it the memory).
///
/// Elements are compared in blocks of about 4 KB with `memcmp` first: bytes that are all the same
/// hold the same data under any mask, so a block whose bytes are equal is a block of equal
/// elements, whatever the type. Only a block whose bytes differ is compared element by element
/// under the element's mask (`ElementMask`), which leaves padding out: there the first element
/// whose data differs is found, or, when only padding differed, the next block is tried. For
/// items of plain values only (`{id: Int, stock: Int}`), which have no storage whose identity says
/// they are unchanged, this is what keeps a state of 50,000 of them from costing 50,000 masked
/// compares per action. It never calls two elements the same that the per-element compare would
/// not: a block is skipped only when every one of its bytes is equal.
///
/// Why reading this memory is sound: `left` and `right` come from `withUnsafeBufferPointer` on two
/// arrays of one element type, whose closures are running; the callers (`ElementView`) check that
/// every element asked for is in its buffer, so every byte read (`count` elements `stride` bytes
/// apart) is inside an allocation of the arrays' own. Bytes are read as bytes (`memcmp`, `load` of
/// `UInt8`, `loadUnaligned` of `UInt64`), which is allowed for memory of any type; padding holds
/// some value, never one that is used unless the mask says the byte is data. Nothing depends on
/// the standard library's private layout: only the buffer's elements, `stride` bytes apart
/// (`MemoryLayout.stride`).
enum ElementRuns {
    /// How many elements a block compared with one `memcmp` holds: about 4 KB, at least one.
    @inline(__always)
    static func blockCount(stride: Int) -> Int { max(1, 4096 / stride) }

    /// How many of the `count` elements at `left` and `right` are the same, from the first.
    static func leading(
        _ left: UnsafeRawPointer, _ right: UnsafeRawPointer, count: Int, stride: Int, mask: [UInt64]
    ) -> Int {
        mask.withUnsafeBufferPointer { mask in
            let block = blockCount(stride: stride)
            var done = 0
            while done < count {
                let elements = min(block, count &- done)
                let start = done &* stride
                if memcmp(left + start, right + start, elements &* stride) != 0 {
                    for index in 0..<elements {
                        let offset = start &+ index &* stride
                        if !same(left + offset, right + offset, stride: stride, mask: mask) { return done &+ index }
                    }
                }
                done &+= elements
            }
            return count
        }
    }

    /// How many of the `count` elements at `left` and `right` are the same, from the last.
    static func trailing(
        _ left: UnsafeRawPointer, _ right: UnsafeRawPointer, count: Int, stride: Int, mask: [UInt64]
    ) -> Int {
        mask.withUnsafeBufferPointer { mask in
            let block = blockCount(stride: stride)
            var done = 0
            while done < count {
                let elements = min(block, count &- done)
                let start = (count &- done &- elements) &* stride
                if memcmp(left + start, right + start, elements &* stride) != 0 {
                    for index in (0..<elements).reversed() {
                        let offset = start &+ index &* stride
                        if !same(left + offset, right + offset, stride: stride, mask: mask) {
                            return done &+ (elements &- 1 &- index)
                        }
                    }
                }
                done &+= elements
            }
            return count
        }
    }

    /// Whether the elements at `left` and `right` hold the same data under `mask` (one word per
    /// eight bytes of the element, see `ElementMask`).
    @inline(__always)
    static func same(
        _ left: UnsafeRawPointer, _ right: UnsafeRawPointer, stride: Int, mask: UnsafeBufferPointer<UInt64>
    ) -> Bool {
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
