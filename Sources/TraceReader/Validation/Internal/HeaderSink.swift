@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) import TraceJSON

/// A fast reading of a trace header for validation: the shared JSON walker
/// (`JSONScanner.scanDocument(into:)`) checks line 1 as strict JSON, and this sink of its events
/// checks, in the same pass, the shape of every machine (each `initial` and each listed case a
/// key of `transitions`), without building a `JSONValue` or a `MachineSpec`, and keeps where
/// each machine is written, so that only the machines of stores that appear are ever built.
///
/// It reads the common header only: names (of members, stores and cases) written in ASCII
/// without escapes (so that comparing bytes is comparing `String`s), no member of the format
/// written twice, `"type":"header"`, `"format":"rewind-trace"` and `"version":1` or `2` written
/// as such. For anything else, errors included, `scan` returns nil and the caller reads the
/// header with `TraceHeader.parse`, which has the messages; so this never decides that a header
/// is wrong, and what it accepts `TraceHeader.parse` accepts with the same meaning (a test
/// compares the two).
///
/// One thread reads it all. The hand-written scanner this replaced read a `machines` of 1 MB or
/// more on two threads, and skipped a machine written again without looking at its bytes; the
/// walker looks at every byte, once. `inspector validate` of a header of 1,000 machines × 200
/// cases (8 MB), whole processes, medians of 31–41 runs in turns with the scanner, in four
/// sessions on 2 cores shared with other builds: 1,000 different machines (what the threads
/// were for) 1.19–1.36× its time (CPU 1.16–1.24×); one machine written 1,000 times 1.32–1.75×
/// (CPU 1.37–1.49×; the scanner's threads did not help there: its CPU time was its wall time); a 100 MB
/// trace of ordinary events 1.0×. Within 1.5× by CPU time, and by wall time but for the
/// alike header on a busy machine, so the threads (and the boundaries they guessed) went: one
/// grammar, one reading.
struct HeaderSink: JSONEventSink {
    /// What `scan` found.
    struct Found {
        var version: Int
        var rules: [TraceRule]
        /// Each store's name and the bytes of its machine object in the line, in the line's order.
        var machines: [(name: String, range: Range<Int>)]
    }

    /// What the next value of the walk is to the header.
    private enum Role {
        /// The line's value: the header object.
        case header
        /// The value of the header's `type`, `format`, `version`, `machines` or `rules`.
        case type, format, version, machines, rules
        /// A store's machine, in `machines`.
        case machine
        /// A machine's `initial` or `transitions`.
        case initial, transitions
        /// A case's targets (an array in `transitions`), and one of them.
        case targets, target
        /// Anything else, checked as JSON by the walker and not looked at.
        case ignored
    }

    /// The header's members that the format defines, each allowed once.
    private struct Members: OptionSet {
        let rawValue: UInt8
        static let type = Members(rawValue: 1 << 0)
        static let format = Members(rawValue: 1 << 1)
        static let version = Members(rawValue: 1 << 2)
        static let machines = Members(rawValue: 1 << 3)
        static let rules = Members(rawValue: 1 << 4)
        static let app = Members(rawValue: 1 << 5)
        static let started = Members(rawValue: 1 << 6)
    }

    /// The line. (The walker passes it with every name and scalar; the containers' events have
    /// only offsets.)
    private let bytes: ByteView
    /// How many arrays and objects are open.
    private var depth = 0
    /// The role of the next value at `depth`.
    private var next = Role.header
    /// While a value is skipped, the depth it opened at and its role; `skipDepth` is `Int.max`
    /// when nothing is, and -1 once the header is found not to be a common one (every event is
    /// then skipped).
    private var skipDepth = Int.max
    private var skipped = Role.ignored
    private var seen: Members = []
    private var version: Int?
    /// Where `rules` starts, and its bytes once it ended.
    private var rulesStart = 0
    private var rules: Range<Int>?
    private var closed = false

    private var machines: [(name: String, range: Range<Int>)] = []
    private var stores = ByteRangeSet()
    private var checked = CheckedMachines()
    /// The store whose machine comes next or is being read, and where its machine starts.
    private var store = 0..<0
    private var machineStart = 0
    /// The machine being read: its `initial`, whether it had `transitions`, its cases, and the
    /// targets its transitions list (kept by their keys, made while their bytes are at hand).
    private var initial: Range<Int>?
    private var hasTransitions = false
    private var cases = ByteRangeSet()
    private var targets: [ByteRangeSet.Key] = []

    private init(_ line: ByteView) {
        bytes = line
    }

    /// The header in `line`, when it is a common header that is shaped as the format says; nil
    /// when `TraceHeader.parse` must read it.
    static func scan(_ line: ByteView) -> Found? {
        guard !line.isEmpty else { return nil }
        var sink = HeaderSink(line)
        var scanner = JSONScanner(line)
        do {
            try scanner.scanDocument(into: &sink)
        } catch {
            return nil
        }
        guard sink.skipDepth >= 0, sink.closed, let version = sink.version,
            sink.seen.isSuperset(of: [.type, .format, .machines])
        else { return nil }
        var rules: [TraceRule] = []
        if let range = sink.rules {
            guard let value = try? JSONParser.parse(line[range]),
                let list = try? TraceRule.parseList(value)
            else { return nil }
            rules = list
        }
        return Found(version: version, rules: rules, machines: sink.machines)
    }

    /// The header is not a common one: every later event is skipped.
    private mutating func giveUp() {
        skipDepth = -1
    }

    /// Skips the value that starts now, at `depth`, whose role is `next`.
    @inline(__always)
    private mutating func skipValue() {
        skipDepth = depth
        skipped = next
    }

    // MARK: Containers

    // Each event is inlined into the walk up to its first test, so that the events of a value
    // skipped (a repeated machine, an ignored member) cost a compare; the rest is out of line.

    @inline(__always)
    mutating func beginObject(at offset: Int) {
        if depth <= skipDepth { openObject(at: offset) }
        depth &+= 1
    }

    private mutating func openObject(at offset: Int) {
        switch next {
        case .header, .machines: break
        case .machine:
            machineStart = offset
            if checked.match(at: offset, in: bytes) != nil {
                // The same bytes as a machine checked before: the same machine.
                skipValue()
                return
            }
            initial = nil
            hasTransitions = false
            cases.removeAll()
            targets.removeAll(keepingCapacity: true)
        case .transitions:
            guard !hasTransitions else { return giveUp() }
            hasTransitions = true
        case .ignored: skipValue()
        default: giveUp()
        }
    }

    @inline(__always)
    mutating func endObject(at offset: Int) {
        depth &-= 1
        if depth <= skipDepth { closeObject(at: offset) }
    }

    private mutating func closeObject(at offset: Int) {
        if depth == skipDepth {
            skipDepth = .max
            if skipped == .machine { addMachine(end: offset &+ 1) }
            return
        }
        switch depth {
        case 0: closed = true
        case 2:
            guard let initial, hasTransitions, cases.contains(initial, in: bytes) else {
                return giveUp()
            }
            for target in targets where !cases.contains(target, in: bytes) { return giveUp() }
            checked.add(machineStart..<offset &+ 1, in: bytes)
            addMachine(end: offset &+ 1)
        default: break
        }
    }

    @inline(__always)
    mutating func beginArray(at offset: Int) {
        if depth <= skipDepth { openArray(at: offset) }
        depth &+= 1
    }

    private mutating func openArray(at offset: Int) {
        switch next {
        case .targets: next = .target
        case .rules:
            rulesStart = offset
            skipValue()
        case .ignored: skipValue()
        default: giveUp()
        }
    }

    @inline(__always)
    mutating func endArray(at offset: Int) {
        depth &-= 1
        if depth == skipDepth {
            skipDepth = .max
            if skipped == .rules { rules = rulesStart..<offset &+ 1 }
        }
    }

    // MARK: Names and scalars

    @inline(__always)
    mutating func key(_ line: ByteView, from start: Int, to end: Int, hasEscapes: Bool) {
        if depth <= skipDepth { readKey(bytes, from: start, to: end, hasEscapes: hasEscapes) }
    }

    private mutating func readKey(_ line: ByteView, from start: Int, to end: Int, hasEscapes: Bool) {
        guard !hasEscapes else { return giveUp() }
        let name = ByteRangeSet.key(start..<end, bytes)
        guard name.isASCII(bytes) else { return giveUp() }
        switch depth {
        case 1: headerMember(bytes, from: start, to: end)
        case 2:
            guard stores.insert(name, in: bytes) else { return giveUp() }
            store = start..<end
            next = .machine
        case 3:
            next =
                Self.equals(bytes, start, end, "initial")
                ? .initial : Self.equals(bytes, start, end, "transitions") ? .transitions : .ignored
        default:  // 4: a case, in `transitions`
            guard cases.insert(name, in: bytes) else { return giveUp() }
            next = .targets
        }
    }

    @inline(__always)
    mutating func string(_ line: ByteView, from start: Int, to end: Int, hasEscapes: Bool) {
        if depth <= skipDepth { readString(bytes, from: start, to: end, hasEscapes: hasEscapes) }
    }

    private mutating func readString(_ line: ByteView, from start: Int, to end: Int, hasEscapes: Bool) {
        switch next {
        case .ignored: break
        case .target:
            let name = ByteRangeSet.key(start..<end, bytes)
            guard !hasEscapes, name.isASCII(bytes) else { return giveUp() }
            targets.append(name)
        case .initial:
            guard initial == nil, !hasEscapes, ByteRangeSet.key(start..<end, bytes).isASCII(bytes) else {
                return giveUp()
            }
            initial = start..<end
        case .type:
            if hasEscapes || !Self.equals(bytes, start, end, "header") { giveUp() }
        case .format:
            if hasEscapes || !Self.equals(bytes, start, end, "rewind-trace") { giveUp() }
        default: giveUp()
        }
    }

    @inline(__always)
    mutating func number(_ line: ByteView, from start: Int, to end: Int) {
        if depth <= skipDepth { readNumber(bytes, from: start, to: end) }
    }

    private mutating func readNumber(_ line: ByteView, from start: Int, to end: Int) {
        switch next {
        case .ignored: break
        case .version:
            guard end &- start == 1, bytes[start] == UInt8(ascii: "1") || bytes[start] == UInt8(ascii: "2") else {
                return giveUp()
            }
            version = Int(bytes[start] &- UInt8(ascii: "0"))
        default: giveUp()
        }
    }

    @inline(__always)
    mutating func literal(_ value: JSONValue, at offset: Int) {
        if depth > skipDepth || next == .ignored { return }
        giveUp()
    }

    // MARK: Helpers

    /// A member of the header object, named by the bytes `start..<end`: its value's role.
    private mutating func headerMember(_ line: ByteView, from start: Int, to end: Int) {
        let member: Members
        switch end &- start {
        case 3 where Self.equals(bytes, start, end, "app"): (member, next) = (.app, .ignored)
        case 4 where Self.equals(bytes, start, end, "type"): (member, next) = (.type, .type)
        case 5 where Self.equals(bytes, start, end, "rules"): (member, next) = (.rules, .rules)
        case 6 where Self.equals(bytes, start, end, "format"): (member, next) = (.format, .format)
        case 7 where Self.equals(bytes, start, end, "version"): (member, next) = (.version, .version)
        case 7 where Self.equals(bytes, start, end, "started"): (member, next) = (.started, .ignored)
        case 8 where Self.equals(bytes, start, end, "machines"): (member, next) = (.machines, .machines)
        default:
            next = .ignored
            return
        }
        guard seen.insert(member).inserted else { return giveUp() }
    }

    private mutating func addMachine(end: Int) {
        let name = bytes[store].string
        machines.append((name, machineStart..<end))
    }

    @inline(__always)
    private static func equals(_ bytes: ByteView, _ start: Int, _ end: Int, _ name: StaticString) -> Bool {
        bytes[start..<end].equals(name)
    }
}
