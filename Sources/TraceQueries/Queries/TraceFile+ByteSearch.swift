@_spi(RewindInternals) internal import RewindSupport
import TraceReader

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension TraceFile {
    /// The bytes from the first event's line to the end of the indexed file: what
    /// `forEachEvent(containing:)` scans over every event, for its progress.
    package var eventByteCount: Int {
        eventCount == 0 ? 0 : index.byteCount - index.offsets[0]
    }

    /// Finds the events whose line holds `token` (ASCII letters compared without case) by
    /// scanning the file's bytes, a few megabytes at a time, with `memchr` for the token's first
    /// byte and a comparison of the rest at each hit; nothing is decoded. For a search that
    /// decodes only the candidate lines: `body` gets each such event's index, in order (from
    /// the end of `events` with `backward`), and returns false to stop.
    ///
    /// - Parameters:
    ///   - others: more tokens, each of which the line must hold too (anywhere in it, case
    ///     aside): a search for several words scans for one and checks the others in each line
    ///     found, so that a common word beside a rare one gives few events.
    ///   - events: the events to look at.
    ///   - shouldStop: asked between blocks; true stops the scan (a search the person cancelled).
    ///   - progress: called after each block with the bytes scanned so far.
    /// - Returns: false when `body` or `shouldStop` stopped the scan, true when it reached the end.
    @discardableResult
    public func forEachEvent(
        containing token: [UInt8], andAll others: [[UInt8]] = [], in events: Range<Int>, backward: Bool = false,
        shouldStop: () -> Bool = { false }, progress: (_ bytesScanned: Int) -> Void = { _ in },
        _ body: (_ index: Int) -> Bool
    ) -> Bool {
        let events = events.clamped(to: 0..<eventCount)
        guard !token.isEmpty, !events.isEmpty else { return true }
        let folded = token.map(Self.lowercased)
        let othersFolded = others.filter { !$0.isEmpty }.map { $0.map(Self.lowercased) }
        // The blocks of events, each at most a few megabytes of lines (at least one event).
        var blocks: [Range<Int>] = []
        var first = events.lowerBound
        while first < events.upperBound {
            let start = index.offsets[first]
            var end = first + 1
            while end < events.upperBound && index.lineLimit(of: end) - start <= TraceSource.blockSize { end += 1 }
            blocks.append(first..<end)
            first = end
        }
        if backward { blocks.reverse() }
        var scanned = 0
        var buffer: UnsafeMutableRawBufferPointer?
        defer { buffer?.deallocate() }
        for block in blocks {
            if shouldStop() { return false }
            let start = index.offsets[block.lowerBound]
            let limit = index.lineLimit(of: block.upperBound - 1)
            var found: [Int] = []
            switch source.storage {
            case .memory(let bytes):
                bytes.withUnsafeBytes { all in
                    let end = min(limit, all.count)
                    guard start < end else { return }
                    found = hits(
                        of: folded, andAll: othersFolded, in: UnsafeRawBufferPointer(rebasing: all[start..<end]),
                        from: start, block: block)
                }
            case .file(let input):
                if buffer == nil || buffer!.count < limit - start {
                    buffer?.deallocate()
                    buffer = .allocate(byteCount: max(limit - start, TraceSource.blockSize), alignment: 16)
                }
                let filled =
                    (try? SystemCalls.read(
                        input.file.rawValue, into: buffer!.baseAddress!, count: limit - start, at: start)) ?? 0
                found = hits(
                    of: folded, andAll: othersFolded, in: UnsafeRawBufferPointer(rebasing: buffer![0..<filled]),
                    from: start, block: block)
            }
            scanned += limit - start
            progress(scanned)
            if backward { found.reverse() }
            for event in found where !body(event) { return false }
        }
        return true
    }

    /// The events of `block` (whose lines `bytes` holds from file offset `start`) with `token`
    /// (lowercased) in their line, and each of `others` (lowercased) too, in order, each once.
    private func hits(
        of token: [UInt8], andAll others: [[UInt8]], in bytes: UnsafeRawBufferPointer, from start: Int,
        block: Range<Int>
    ) -> [Int] {
        let offsets = Self.occurrences(of: token, in: bytes, all: true)
        // Each hit's event: the last whose line starts at or before it.
        var events: [Int] = []
        var event = block.lowerBound
        for offset in offsets {
            let absolute = start + offset
            while event + 1 < block.upperBound && index.offsets[event + 1] <= absolute { event += 1 }
            if events.last != event { events.append(event) }
        }
        guard !others.isEmpty else { return events }
        return events.filter { event in
            let lineStart = max(0, index.offsets[event] - start)
            let lineEnd = min(bytes.count, index.lineLimit(of: event) - start)
            guard lineStart < lineEnd else { return false }
            let line = UnsafeRawBufferPointer(rebasing: bytes[lineStart..<lineEnd])
            return others.allSatisfy { !Self.occurrences(of: $0, in: line, all: false).isEmpty }
        }
    }

    /// The offsets in `bytes` where `token` (lowercased) starts, ASCII letters compared without
    /// case, in order: every one, or only the first (`all` false): `memchr` for the token's
    /// first byte, in either case, and a comparison of the rest at each hit.
    private static func occurrences(of token: [UInt8], in bytes: UnsafeRawBufferPointer, all: Bool) -> [Int] {
        guard let base = bytes.baseAddress, !token.isEmpty, bytes.count >= token.count else { return [] }
        var offsets: [Int] = []
        let firsts = isLetter(token[0]) ? [token[0], token[0] - 32] : [token[0]]
        let last = bytes.count - token.count
        token.withUnsafeBufferPointer { token in
            for first in firsts {
                var at = 0
                while at <= last {
                    guard let hit = memchr(base + at, Int32(first), last - at + 1) else { break }
                    let position = base.distance(to: UnsafeRawPointer(hit))
                    var matches = true
                    var other = 1
                    while other < token.count {
                        if lowercased(bytes[position + other]) != token[other] {
                            matches = false
                            break
                        }
                        other += 1
                    }
                    if matches {
                        offsets.append(position)
                        if !all { break }
                    }
                    at = position + 1
                }
            }
        }
        if firsts.count > 1 { offsets.sort() }
        return offsets
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}
