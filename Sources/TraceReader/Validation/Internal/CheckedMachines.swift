@_spi(RewindInternals) internal import RewindSupport

/// The machines of a header already checked, by their first bytes: stores of one type share one
/// machine, and a header of many stores writes the same machine many times, each checked once
/// (a header written by the recorder repeats it byte for byte).
struct CheckedMachines {
    /// How many bytes from a machine's start make its key.
    private static let prefixLength = 32
    /// The most machines kept per key, so that a header of machines that share their first bytes
    /// but differ later costs a bounded number of comparisons per machine.
    private static let perKey = 4
    private var byPrefix: [UInt64: [Range<Int>]] = [:]

    @inline(__always)
    private static func key(at start: Int, in bytes: ByteView) -> UInt64 {
        ByteHash.hash(bytes[start..<(start &+ min(prefixLength, bytes.count &- start))])
    }

    /// The length of a checked machine whose bytes are also those at `start`, if there is one.
    func match(at start: Int, in bytes: ByteView) -> Int? {
        guard let candidates = byPrefix[Self.key(at: start, in: bytes)] else { return nil }
        for range in candidates where range.count <= bytes.count &- start {
            if bytes[start..<(start &+ range.count)].elementsEqual(bytes[range]) { return range.count }
        }
        return nil
    }

    /// Records the machine checked in bytes `range`.
    mutating func add(_ range: Range<Int>, in bytes: ByteView) {
        let key = Self.key(at: range.lowerBound, in: bytes)
        guard byPrefix[key, default: []].count < Self.perKey else { return }
        byPrefix[key, default: []].append(range)
    }
}
