import Dispatch
@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) import TraceJSON

/// A fast reading of a trace header for validation: it checks line 1 as strict JSON and the
/// shape of every machine (each `initial` and each listed case a key of `transitions`) in one
/// pass over the bytes, without building a `JSONValue` or a `MachineSpec`, and keeps where each
/// machine is written, so that only the machines of stores that appear are ever built.
///
/// It reads the common header only: names (of members, stores and cases) written in plain
/// ASCII without escapes (so that comparing bytes is comparing `String`s), no member of the
/// format written twice, `"type":"header"`, `"format":"rewind-trace"` and `"version":1` or `2`
/// written as such. For anything else, errors included, `scan` returns nil and the caller reads
/// the header with `TraceHeader.parse`, which has the messages; so this never decides that a
/// header is wrong, and what it accepts `TraceHeader.parse` accepts with the same meaning (a test
/// compares the two).
struct HeaderScanner {
    /// What `scan` found.
    struct Found {
        var version: Int
        var rules: [TraceRule]
        /// Each store's name and the bytes of its machine object in the line, in the line's order.
        var machines: [(name: String, range: Range<Int>)]
    }

    private let base: UnsafePointer<UInt8>
    private let count: Int
    private var position = 0
    /// The case names of the machine being read, and the targets its transitions list.
    private var cases = ByteRangeSet()
    /// (Kept by their keys, made while their bytes are at hand.)
    private var targets: [ByteRangeSet.Key] = []

    /// The length from the start of `machines` to the line's end from which they are read by two
    /// threads (see `scanMachinesInTwo`).
    private let splitLength: Int
    /// Whether the second thread's part of a shared reading runs first, to its end, on this
    /// thread (for tests: every segment it reads is then joined).
    private var otherThreadFirst = false

    /// The length of line from `machines` on past which two threads read them, by default: the
    /// header of 1,000 different machines × 200 cases (8 MB) took 1.4–1.8× the time of a trace of
    /// its size on one thread.
    static let defaultSplitLength = 1 << 20

    private init(_ line: UnsafeRawBufferPointer, splitLength: Int) {
        self.splitLength = splitLength
        base = line.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 0x10)!
        count = line.count
    }

    /// The header in `line`, when it is a common header that is shaped as the format says; nil
    /// when `TraceHeader.parse` must read it. `splitLength` and `otherThreadFirst` are for
    /// tests: the outcome is the same whatever they are.
    static func scan(
        _ line: UnsafeRawBufferPointer, splitLength: Int = defaultSplitLength, otherThreadFirst: Bool = false
    ) -> Found? {
        guard line.count > 0 else { return nil }
        var scanner = HeaderScanner(line, splitLength: splitLength)
        scanner.otherThreadFirst = otherThreadFirst
        return scanner.scanHeader(line)
    }

    private mutating func scanHeader(_ line: UnsafeRawBufferPointer) -> Found? {
        skipWhitespace()
        guard consume(UInt8(ascii: "{")) else { return nil }
        var version: Int?
        var rules: [TraceRule] = []
        var machines: [(name: String, range: Range<Int>)]?
        var seen = Set<String>()
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return nil }  // no members: not a header
        repeat {
            skipWhitespace()
            guard let key = plainString() else { return nil }
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            let name = String(
                decoding: UnsafeRawBufferPointer(start: base + key.lowerBound, count: key.count), as: UTF8.self)
            let known = ["type", "format", "version", "machines", "rules", "app", "started"].contains(name)
            if known {
                guard seen.insert(name).inserted else { return nil }
            }
            let start = position
            switch name {
            case "machines":
                guard let found = scanMachines() else { return nil }
                machines = found
            case "type", "format", "version":
                guard let end = try? JSONSyntax.skipValue(in: line, at: position) else { return nil }
                position = end
                let value = UnsafeRawBufferPointer(start: base + start, count: end - start)
                let expected: StaticString =
                    switch name {
                    case "type": #""header""#
                    case "format": #""rewind-trace""#
                    default: ""
                    }
                if name == "version" {
                    guard value.count == 1, value[0] == UInt8(ascii: "1") || value[0] == UInt8(ascii: "2") else {
                        return nil
                    }
                    version = Int(value[0] - UInt8(ascii: "0"))
                } else {
                    guard value.count == expected.utf8CodeUnitCount,
                        ShortBytes.equal(value.baseAddress!, expected.utf8Start, count: value.count)
                    else { return nil }
                }
            default:
                guard let end = skipShallowValue(line) else { return nil }
                if name == "rules" {
                    let value = UnsafeRawBufferPointer(start: base + start, count: end - start)
                    guard let parsed = try? JSONParser.parse(value), let list = try? TraceRule.parseList(parsed)
                    else { return nil }
                    rules = list
                }
            }
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")) else { return nil }
        skipWhitespace()
        guard position == count, let version, let machines, seen.contains("type"), seen.contains("format") else {
            return nil
        }
        return Found(version: version, rules: rules, machines: machines)
    }

    /// `{"store": MACHINE, ...}`. A long one (`splitLength` bytes to the line's end or more) is
    /// read by two threads at once: see `scanMachinesShared`.
    private mutating func scanMachines() -> [(name: String, range: Range<Int>)]? {
        guard consume(UInt8(ascii: "{")) else { return nil }
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return [] }
        var part = MachinesPart()
        if count &- position >= splitLength {
            let boundaries = Self.storeBoundaries(from: position, base: base, count: count)
            if !boundaries.isEmpty { return scanMachinesShared(into: &part, boundaries: boundaries) }
        }
        guard scanStores(into: &part, stop: Int.max, cancelled: nil) == .closed else { return nil }
        return part.machines
    }

    /// The machines read so far, and what reading them keeps.
    private struct MachinesPart {
        var machines: [(name: String, range: Range<Int>)] = []
        /// Where each store's name is, in `machines`' order.
        var names: [Range<Int>] = []
        var stores = ByteRangeSet()
        var checked = CheckedMachines()
    }

    /// How `scanStores` ended.
    private enum StoresEnd {
        /// The machines are not shaped as the scanner reads them.
        case failed
        /// At the `}` that closes `machines`, which was consumed.
        case closed
        /// At `stop`, where a store's name starts.
        case stopped
        /// Past `stop`, where a store's name starts.
        case passed
        /// `cancelled` was set.
        case cancelled
    }

    /// The members of `machines` from the cursor (at a store's name) on, into `part`: up to the
    /// `}` that closes it, or up to the first store's name at or past `stop`.
    private mutating func scanStores(
        into part: inout MachinesPart, stop: Int, cancelled: AtomicCell<Bool>?
    ) -> StoresEnd {
        repeat {
            skipWhitespace()
            if position >= stop { return position == stop ? .stopped : .passed }
            if let cancelled, cancelled.load(ordering: .relaxed) { return .cancelled }
            guard let store = plainString(), part.stores.insert(store, in: base, count: count) else { return .failed }
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { return .failed }
            skipWhitespace()
            let start = position
            if let length = part.checked.match(at: start, base: base, count: count) {
                // The same bytes as a machine checked before: the same machine, which ends at
                // the same distance (a JSON value's end is decided by its own bytes).
                position = start &+ length
            } else {
                guard scanMachine() else { return .failed }
                part.checked.add(start..<position, base: base, count: count)
            }
            let name = String(
                decoding: UnsafeRawBufferPointer(start: base + store.lowerBound, count: store.count), as: UTF8.self)
            part.machines.append((name, start..<position))
            part.names.append(store)
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "}")) ? .closed : .failed
    }

    /// How many parts a long `machines` is cut into for `scanMachinesShared`: enough that when
    /// the other thread gets little time (a busy machine), this one is rarely left waiting for it.
    private static let segmentCount = 16

    /// Reads the members of `machines` on two threads. `boundaries` cut them into segments (a
    /// guess, from the bytes around each, that a store's name starts there): this thread reads
    /// from the cursor on, and the other reads segments from the last one back, each up to the
    /// next boundary, as long as this thread has not reached it.
    ///
    /// What the members from a store's name on are is decided by their own bytes, so when this
    /// thread reaches a boundary at a store's name, the other's reading of that segment is what
    /// this one's would have been, and is joined (a store named twice is refused as in one
    /// reading). A segment the other has not read yet, or whose boundary was a wrong guess, this
    /// thread reads itself. So the outcome is always that of one reading from the start, and this
    /// thread never waits for the other except to let it finish a machine at the end.
    private mutating func scanMachinesShared(into part: inout MachinesPart, boundaries: [Int]) -> [(
        name: String, range: Range<Int>
    )]? {
        let segments = Lock(SharedSegments(count: boundaries.count))
        let line = UnsafeRawBufferPointer(start: base, count: count)
        let otherThreadFirst = otherThreadFirst
        let finished = AtomicCell<Bool>(false)
        var outcome: [(name: String, range: Range<Int>)]?
        withUnsafeMutablePointer(to: &self) { scanner in
            withUnsafeMutablePointer(to: &part) { part in
                withUnsafeMutablePointer(to: &outcome) { outcome in
                    // This thread touches only `scanner`, `part` and `outcome`, the other
                    // only its own scanners; they share `segments` (behind its lock) and
                    // `finished`. `concurrentPerform` returns when both are done.
                    let shared = SharedScan(
                        scanner: scanner, part: part, outcome: outcome, finished: finished, segments: segments,
                        boundaries: boundaries, line: line)
                    let run: @Sendable (Int) -> Void = { thread in
                        if thread == 0 {
                            shared.outcome.pointee = shared.scanner.pointee.readSegments(
                                into: &shared.part.pointee, boundaries: shared.boundaries, shared: shared.segments)
                            shared.finished.store(true, ordering: .relaxed)
                        } else {
                            Self.readSegmentsFromTheEnd(
                                line: shared.line, boundaries: shared.boundaries, shared: shared.segments,
                                finished: shared.finished)
                        }
                    }
                    if otherThreadFirst {
                        run(1)
                        run(0)
                    } else {
                        DispatchQueue.concurrentPerform(iterations: 2, execute: run)
                    }
                }
            }
        }
        return outcome
    }

    /// The state of each segment of `scanMachinesShared`, and what the other thread found in it.
    private struct SharedSegments {
        enum State {
            /// Not taken by either thread.
            case free
            /// Being read by the other thread.
            case reading
            /// Read by the other thread: how it ended and where.
            case read(StoresEnd, position: Int)
            /// Reached or passed by this thread: the other thread's reading is not needed.
            case taken
        }

        var states: [State]
        var parts: [MachinesPart?]

        init(count: Int) {
            states = Array(repeating: .free, count: count)
            parts = Array(repeating: nil, count: count)
        }
    }

    /// The pointers `scanMachinesShared` gives its threads.
    private struct SharedScan: @unchecked Sendable {
        let scanner: UnsafeMutablePointer<HeaderScanner>
        let part: UnsafeMutablePointer<MachinesPart>
        let outcome: UnsafeMutablePointer<[(name: String, range: Range<Int>)]?>
        let finished: AtomicCell<Bool>
        let segments: Lock<SharedSegments>
        let boundaries: [Int]
        let line: UnsafeRawBufferPointer
    }

    /// The first thread of `scanMachinesShared`: from the cursor to the end of `machines`, taking
    /// in each segment the other thread read when it reaches its boundary at a store's name.
    private mutating func readSegments(
        into part: inout MachinesPart, boundaries: [Int], shared: Lock<SharedSegments>
    ) -> [(name: String, range: Range<Int>)]? {
        var next = 0  // the boundary ahead
        while true {
            let stop = next < boundaries.count ? boundaries[next] : Int.max
            switch scanStores(into: &part, stop: stop, cancelled: nil) {
            case .failed, .cancelled: return nil
            case .closed: return part.machines
            case .passed:
                // A wrong guess: read on.
                shared.withLock { $0.states[next] = .taken }
                next &+= 1
            case .stopped:
                let found = shared.withLock { segments -> (StoresEnd, Int, MachinesPart)? in
                    guard case .read(let end, let position) = segments.states[next], let part = segments.parts[next]
                    else {
                        segments.states[next] = .taken
                        return nil
                    }
                    segments.parts[next] = nil
                    return (end, position, part)
                }
                next &+= 1
                // Not read by the other thread (or read past a wrong guess): read it here.
                guard let (end, endPosition, read) = found, end == .stopped || end == .closed || end == .failed
                else { continue }
                if end == .failed { return nil }
                for name in read.names where !part.stores.insert(name, in: base, count: count) { return nil }
                part.machines += read.machines
                part.names += read.names
                position = endPosition
                if end == .closed { return part.machines }
            }
        }
    }

    /// The second thread of `scanMachinesShared`: segments from the last back, each up to the
    /// next boundary, until it reaches one the first thread has taken.
    private static func readSegmentsFromTheEnd(
        line: UnsafeRawBufferPointer, boundaries: [Int], shared: Lock<SharedSegments>,
        finished: AtomicCell<Bool>
    ) {
        for segment in boundaries.indices.reversed() {
            let free = shared.withLock { segments -> Bool in
                guard case .free = segments.states[segment] else { return false }
                segments.states[segment] = .reading
                return true
            }
            guard free else { return }
            var scanner = HeaderScanner(line, splitLength: .max)
            scanner.position = boundaries[segment]
            var part = MachinesPart()
            let stop = segment &+ 1 < boundaries.count ? boundaries[segment &+ 1] : Int.max
            let end = scanner.scanStores(into: &part, stop: stop, cancelled: finished)
            let position = scanner.position
            shared.withLock { segments in
                // The first thread may have taken it meanwhile: then it is not needed.
                guard case .reading = segments.states[segment] else { return }
                segments.states[segment] = .read(end, position: position)
                segments.parts[segment] = part
            }
            if end == .cancelled { return }
        }
    }

    /// Where `segmentCount` segments of the members of `machines` from `start` seem to begin
    /// (see `storeBoundary`), in order, each once.
    private static func storeBoundaries(from start: Int, base: UnsafePointer<UInt8>, count: Int) -> [Int] {
        var boundaries: [Int] = []
        let length = count &- start
        for segment in 1..<segmentCount {
            let from = max(start &+ length / segmentCount &* segment, (boundaries.last ?? start) &+ 1)
            guard let boundary = storeBoundary(after: from, base: base, count: count) else { break }
            boundaries.append(boundary)
        }
        return boundaries
    }

    /// Where a store's name seems to start at or after `start`: after a `}` (a machine's end),
    /// a `,`, and before `:` and `{` (a machine's start); nil when no such place is found.
    private static func storeBoundary(after start: Int, base: UnsafePointer<UInt8>, count: Int) -> Int? {
        var offset = start
        while offset < count {
            guard base[offset] == UInt8(ascii: "}") else {
                offset &+= 1
                continue
            }
            offset &+= 1
            offset = JSONWhitespace.skip(base, from: offset, to: count)
            guard offset < count, base[offset] == UInt8(ascii: ",") else { continue }
            offset &+= 1
            offset = JSONWhitespace.skip(base, from: offset, to: count)
            guard offset < count, base[offset] == UInt8(ascii: "\"") else { continue }
            let name = offset
            offset &+= 1
            while offset < count, base[offset] != UInt8(ascii: "\""), base[offset] != UInt8(ascii: "\\") {
                offset &+= 1
            }
            guard offset < count, base[offset] == UInt8(ascii: "\"") else { continue }
            offset &+= 1
            offset = JSONWhitespace.skip(base, from: offset, to: count)
            guard offset < count, base[offset] == UInt8(ascii: ":") else { continue }
            offset &+= 1
            offset = JSONWhitespace.skip(base, from: offset, to: count)
            guard offset < count, base[offset] == UInt8(ascii: "{") else { continue }
            return name
        }
        return nil
    }

    /// `{"initial": CASE, "transitions": {CASE: [CASE, ...], ...}}`, every case a key of
    /// `transitions`; other members are checked as JSON and skipped.
    private mutating func scanMachine() -> Bool {
        guard consume(UInt8(ascii: "{")) else { return false }
        var initial: Range<Int>?
        var hasTransitions = false
        cases.removeAll()
        targets.removeAll(keepingCapacity: true)
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return false }
        repeat {
            skipWhitespace()
            guard let key = plainString() else { return false }
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { return false }
            skipWhitespace()
            if isKey(key, "initial") {
                guard initial == nil, let name = plainString() else { return false }
                initial = name
            } else if isKey(key, "transitions") {
                guard !hasTransitions, scanTransitions() else { return false }
                hasTransitions = true
            } else {
                let line = UnsafeRawBufferPointer(start: base, count: count)
                guard skipShallowValue(line) != nil else { return false }
            }
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")), let initial, hasTransitions, cases.contains(initial, in: base, count: count)
        else {
            return false
        }
        for target in targets where !cases.contains(target, in: base) { return false }
        return true
    }

    /// `{CASE: [CASE, ...], ...}`: the keys go into `cases`, the listed cases into `targets`.
    private mutating func scanTransitions() -> Bool {
        guard consume(UInt8(ascii: "{")) else { return false }
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return true }
        repeat {
            skipWhitespace()
            guard let source = plainString(), cases.insert(source, in: base, count: count) else { return false }
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { return false }
            skipWhitespace()
            guard consume(UInt8(ascii: "[")) else { return false }
            skipWhitespace()
            if !consume(UInt8(ascii: "]")) {
                repeat {
                    skipWhitespace()
                    guard let target = plainString() else { return false }
                    targets.append(ByteRangeSet.key(target, base, count))
                    skipWhitespace()
                } while consume(UInt8(ascii: ","))
                guard consume(UInt8(ascii: "]")) else { return false }
            }
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "}"))
    }

    // MARK: Bytes

    @inline(__always)
    private mutating func skipWhitespace() {
        position = JSONWhitespace.skip(base, from: position, to: count)
    }

    @inline(__always)
    private mutating func consume(_ byte: UInt8) -> Bool {
        guard position < count, base[position] == byte else { return false }
        position &+= 1
        return true
    }

    /// The body of the string at the cursor when it is printable ASCII without escapes; nil
    /// otherwise (the caller gives up).
    @inline(__always)
    private mutating func plainString() -> Range<Int>? {
        guard position < count, base[position] == UInt8(ascii: "\"") else { return nil }
        let start = position &+ 1
        var offset = JSONScanner.skipPlainASCII(base, from: start, count: count)
        while offset < count {
            let byte = base[offset]
            if byte == UInt8(ascii: "\"") {
                position = offset &+ 1
                return start..<offset
            }
            guard byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\") else { return nil }
            offset &+= 1
        }
        return nil
    }

    private func isKey(_ range: Range<Int>, _ name: StaticString) -> Bool {
        range.count == name.utf8CodeUnitCount
            && ShortBytes.equal(base + range.lowerBound, name.utf8Start, count: range.count)
    }

    /// Skips a valid JSON value that nests shallowly enough to be as valid within the whole line
    /// as on its own (the parser's depth limit counts from the line's start); nil otherwise.
    private mutating func skipShallowValue(_ line: UnsafeRawBufferPointer) -> Int? {
        let start = position
        guard let end = try? JSONSyntax.skipValue(in: line, at: position) else { return nil }
        var openings = 0
        for offset in start..<end where base[offset] == UInt8(ascii: "[") || base[offset] == UInt8(ascii: "{") {
            openings &+= 1
        }
        guard openings < JSONParser.maximumDepth - 8 else { return nil }
        position = end
        return end
    }
}

/// The machines of a header already checked, by their first bytes: stores of one type share one
/// machine, and a header of many stores writes the same machine many times, each checked once
/// (a header written by the recorder repeats it byte for byte).
private struct CheckedMachines {
    /// How many bytes from a machine's start make its key.
    private static let prefixLength = 32
    /// The most machines kept per key, so that a header of machines that share their first bytes
    /// but differ later costs a bounded number of comparisons per machine.
    private static let perKey = 4
    private var byPrefix: [UInt64: [Range<Int>]] = [:]

    @inline(__always)
    private static func key(at start: Int, base: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        ByteHash.hash(UnsafeRawBufferPointer(start: base + start, count: min(prefixLength, count &- start)))
    }

    /// The length of a checked machine whose bytes are also those at `start`, if there is one.
    func match(at start: Int, base: UnsafePointer<UInt8>, count: Int) -> Int? {
        guard let candidates = byPrefix[Self.key(at: start, base: base, count: count)] else { return nil }
        for range in candidates where range.count <= count &- start {
            if ShortBytes.equal(base + start, base + range.lowerBound, count: range.count) { return range.count }
        }
        return nil
    }

    /// Records the machine checked in bytes `range`.
    mutating func add(_ range: Range<Int>, base: UnsafePointer<UInt8>, count: Int) {
        let key = Self.key(at: range.lowerBound, base: base, count: count)
        guard byPrefix[key, default: []].count < Self.perKey else { return }
        byPrefix[key, default: []].append(range)
    }
}

/// A set of byte strings of one buffer, by their ranges: the case names of one machine, or the
/// store names of a header. Cleared in time proportional to what it held.
///
/// A name of at most 16 bytes (case and store names mostly are) is kept in its slot as two
/// words, so that looking it up is a multiplication and three comparisons, without hashing byte
/// by byte or reading the buffer again; a longer one by its `ByteHash` and its bytes. The header
/// of 1,000 different machines × 200 cases looks up 800,000 names: the target check went from
/// about a third of reading it to a sixth.
private struct ByteRangeSet {
    private struct Slot {
        /// A short name's bytes 0..<8 and 8..<16, zero-padded; a long one's `ByteHash` and ~0.
        var low: UInt64
        var high: UInt64
        /// The range's start + 1, 0 when the slot is empty.
        var start: Int32
        var length: Int32
    }

    /// A name's two words and its length, as a slot keeps them, and where it starts.
    package struct Key {
        var low: UInt64
        var high: UInt64
        var length: Int
        var start: Int

        /// The slot to look in first, of `slotCount` (a power of two): the top bits of a product,
        /// which depend on every byte (the low bits do not depend on the last bytes).
        @inline(__always)
        func slotIndex(of slotCount: Int) -> Int {
            let mixed =
                (low &* 0x9E37_79B9_7F4A_7C15) &+ (high &* 0xC2B2_AE3D_27D4_EB4F) &+ UInt64(truncatingIfNeeded: length)
            return Int(truncatingIfNeeded: mixed &>> UInt64(64 &- slotCount.trailingZeroBitCount))
        }
    }

    /// The longest name kept as words.
    private static let wordBytes = 16

    /// A power of two of slots, at least twice as many as the names.
    private var slots = [Slot](repeating: Slot(low: 0, high: 0, start: 0, length: 0), count: 16)
    private var used: [Int32] = []

    mutating func removeAll() {
        slots.withUnsafeMutableBufferPointer { slots in
            for slot in used { slots[Int(slot)].start = 0 }
        }
        used.removeAll(keepingCapacity: true)
    }

    /// Adds `range` (bytes of the `count` bytes at `base`); false when the set has its bytes
    /// already.
    @inline(__always)
    mutating func insert(_ range: Range<Int>, in base: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard range.upperBound < Int(Int32.max) else { return false }
        if (used.count &+ 1) &* 2 > slots.count { grow(base, count: count) }
        let key = Self.key(range, base, count)
        let found: Int? = slots.withUnsafeMutableBufferPointer { slots in
            let mask = slots.count &- 1
            var index = key.slotIndex(of: slots.count)
            while slots[index].start != 0 {
                if Self.same(slots[index], key, base) { return nil }
                index = (index &+ 1) & mask
            }
            slots[index] = Slot(
                low: key.low, high: key.high, start: Int32(range.lowerBound &+ 1), length: Int32(range.count))
            return index
        }
        guard let found else { return false }
        used.append(Int32(found))
        return true
    }

    @inline(__always)
    func contains(_ range: Range<Int>, in base: UnsafePointer<UInt8>, count: Int) -> Bool {
        contains(Self.key(range, base, count), in: base)
    }

    /// Whether the set has the name of `key` (made by `key(_:_:_:)` from the same buffer).
    @inline(__always)
    func contains(_ key: Key, in base: UnsafePointer<UInt8>) -> Bool {
        slots.withUnsafeBufferPointer { slots in
            let mask = slots.count &- 1
            var index = key.slotIndex(of: slots.count)
            while slots[index].start != 0 {
                if Self.same(slots[index], key, base) { return true }
                index = (index &+ 1) & mask
            }
            return false
        }
    }

    /// The key of the bytes `range` of the `count` bytes at `base`: a short name read in two
    /// loads of 8 bytes when 16 bytes from its start are in the buffer (a name in a header is
    /// followed by at least its closing quote and the header's last `}`), else byte by byte.
    @inline(__always)
    static func key(_ range: Range<Int>, _ base: UnsafePointer<UInt8>, _ count: Int) -> Key {
        let length = range.count
        guard length <= wordBytes else {
            let bytes = UnsafeRawBufferPointer(start: base + range.lowerBound, count: length)
            return Key(low: ByteHash.hash(bytes), high: ~0, length: length, start: range.lowerBound)
        }
        guard length > 0 else { return Key(low: 0, high: 0, length: 0, start: range.lowerBound) }
        let start = UnsafeRawPointer(base + range.lowerBound)
        var low: UInt64
        var high: UInt64
        if range.lowerBound &+ wordBytes <= count {
            low = UInt64(littleEndian: start.loadUnaligned(as: UInt64.self))
            high = UInt64(littleEndian: start.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        } else {
            low = 0
            high = 0
            for offset in 0..<length {
                let byte = UInt64(start.load(fromByteOffset: offset, as: UInt8.self))
                if offset < 8 {
                    low |= byte &<< UInt64(offset &* 8)
                } else {
                    high |= byte &<< UInt64((offset &- 8) &* 8)
                }
            }
        }
        // Keep the name's bytes only (the first byte is the lowest).
        if length < 8 {
            low &= (1 &<< UInt64(length &* 8)) &- 1
            high = 0
        } else if length < 16 {
            high &= (1 &<< UInt64((length &- 8) &* 8)) &- 1
        }
        return Key(low: low, high: high, length: length, start: range.lowerBound)
    }

    @inline(__always)
    private static func same(_ slot: Slot, _ key: Key, _ base: UnsafePointer<UInt8>) -> Bool {
        guard slot.low == key.low, slot.high == key.high, Int(slot.length) == key.length else { return false }
        return key.length <= wordBytes
            || ShortBytes.equal(base + Int(slot.start &- 1), base + key.start, count: key.length)
    }

    private mutating func grow(_ base: UnsafePointer<UInt8>, count: Int) {
        let kept = used.map { slots[Int($0)] }
        slots = [Slot](repeating: Slot(low: 0, high: 0, start: 0, length: 0), count: slots.count * 2)
        used.removeAll(keepingCapacity: true)
        for slot in kept {
            let start = Int(slot.start &- 1)
            _ = insert(start..<(start &+ Int(slot.length)), in: base, count: count)
        }
    }
}
