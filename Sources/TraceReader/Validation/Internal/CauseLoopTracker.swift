@_spi(RewindInternals) internal import RewindSupport
/// Finds cause loops as the validator streams a trace: a chain of `cause`s (one store reacting to
/// another, which reacts back…) that passes through the same store and action more than
/// `maximumDepth` times. Stores that depend on each other can loop forever; this is how a trace
/// shows it.
///
/// Memory is bounded whatever the trace's length. The tracker keeps, for the last `capacity`
/// seqs only, each register and transition event's store, action, cause and place in its chain,
/// in a ring indexed by seq. A `cause` older than that (or pointing forward, or at the event
/// itself, or at a seq with no event) starts a new chain. Each event records how many times its
/// own store and action occur in its chain, found by walking up the chain to the nearest event
/// with the same store and action, at most `walkLimit` steps: a loop whose cycle is longer than
/// that is not seen. An event with no `cause` costs one ring write and the interning of its
/// action name, and nothing is walked.
///
/// Each loop is reported once, at the first event where its count passes `maximumDepth`; the
/// chains started by the same event are one loop. The problem's message is written when the run
/// finishes, so it gives the count and last seq the loop reached.
///
/// The walk is skipped where its answer is known: while the seqs recorded only go up (a trace
/// without `seq` problems), the nearest event with a store and action is the latest one recorded
/// with them, if that one is an ancestor, and the ancestors come in runs of consecutive seqs (each
/// event caused by the one just before it) that are crossed in one step. A long chain then costs
/// a few steps per event instead of 256 (`nearestByRuns`); where the shortcut cannot tell, the walk
/// decides, so the counts are the walk's in every case (a test compares the two).
struct CauseLoopTracker {
    /// One event of the ring.
    private struct Entry {
        /// The event's seq; `Int.min` for an empty slot.
        var seq = Int.min
        var store: Int32 = 0
        /// The action's id in `actions`; -1 for a register event.
        var action: Int32 = -1
        /// How many times the event's store and action occur in its chain, itself included.
        var count: Int32 = 1
        /// The cause's seq, or `Int.min` when the event starts its chain.
        var cause = Int.min
        /// The seq of the event that started the chain.
        var root = 0
        /// The smallest seq of the run of this event's chain that ends at it: the events from
        /// `runStart` to this one have consecutive seqs, each caused by the one before it.
        var runStart = 0
    }

    /// A loop found, for its message.
    struct Loop {
        /// The index of its problem in the report, or nil when the report was full.
        var problem: Int?
        /// The store and action that repeats.
        var store: Int32
        var action: Int32
        /// The cycle: the names of the events from one occurrence of the repeating store and
        /// action to the next (both included), oldest first.
        var cycle: [String]
        /// The oldest event of the loop in the chain, the one after it, and the latest.
        var firstSeq: Int
        var secondSeq: Int?
        var lastSeq: Int
        /// The most times the store and action occurred in one chain.
        var count: Int
    }

    /// The threshold: a chain may pass through one store and action this many times.
    let maximumDepth: Int
    /// How many recent seqs the ring remembers.
    static let capacity = 1 << 14
    /// The longest walk up a chain looking for the same store and action.
    static let walkLimit = 256

    private var ring: [Entry] = []
    private var actions = NameTable()
    /// The last few actions interned: a trace has few, and the same ones come back event after
    /// event, found so without hashing them.
    private var recentActions = RecentNames()
    /// Whether the shortcut past the walk may be taken (tests turn it off to compare).
    var allowsShortcut = true
    /// Whether every seq recorded was larger than the one before: the ring then holds each seq at
    /// most once, and what `nearestByRuns` relies on holds. Once false, it stays false.
    private var increasing = true
    /// The largest seq recorded, while `increasing`.
    private var latestSeq = Int.min
    /// The largest seq that the ring dropped for a later one: every recorded seq above it is there.
    private var droppedFloor = Int.min
    /// The latest seq recorded for each store and action, while `increasing`.
    private var latestOfKey = LatestSeqTable()
    /// Loops found, by the seq of the event that started their chain.
    private(set) var loops: [Int: Loop] = [:]

    init(maximumDepth: Int) {
        self.maximumDepth = max(1, maximumDepth)
    }

    /// Records a register (`action` nil) or transition event. Returns true when this event is
    /// the first of its chain to pass the threshold: the caller then calls `beginLoop`, reports
    /// the loop and calls `setProblem(_:forLoopAt:)`.
    @inline(__always)
    mutating func record(seq: Int, store: Int, action: EventFields.Text?, cause: Int?, line: ByteView)
        -> Bool
    {
        if ring.isEmpty || (seq >= ring.count && ring.count < Self.capacity) { makeRoom(for: seq) }
        if increasing {
            if seq <= latestSeq || seq == Int.min {
                increasing = false
                latestOfKey = LatestSeqTable()
            } else {
                latestSeq = seq
            }
        }
        var entry = Entry()
        entry.seq = seq
        entry.runStart = seq
        entry.store = Int32(truncatingIfNeeded: store)
        if let action {
            entry.action = Int32(truncatingIfNeeded: recentActions.intern(action, of: line, in: &actions))
        }
        entry.root = seq
        // The fast path: an event with no cause is the start of its chain.
        // `Int.min` marks an empty slot: a cause (or seq) of `Int.min` starts a chain.
        guard let cause, cause < seq, cause != Int.min, let parent = self.entry(cause) else {
            keep(entry)
            return false
        }
        entry.cause = cause
        entry.root = ring[parent].root
        if cause == seq &- 1 { entry.runStart = ring[parent].runStart }
        var found: Int?
        switch increasing && allowsShortcut
            ? nearestByRuns(from: parent, store: entry.store, action: entry.action) : .unknown
        {
        case .found(let slot): found = slot
        case .none: found = nil
        case .unknown: found = nearest(from: parent, store: entry.store, action: entry.action)
        }
        if let same = found {
            entry.count = ring[same].count &+ 1
        }
        keep(entry)
        guard Int(entry.count) > maximumDepth else { return false }
        if var loop = loops[entry.root] {
            if entry.store == loop.store && entry.action == loop.action {
                loop.count = max(loop.count, Int(entry.count))
            }
            loop.lastSeq = max(loop.lastSeq, seq)
            loops[entry.root] = loop
            return false
        }
        return true
    }

    /// The count recorded for the event `seq` (how many times its store and action occur in its
    /// chain), while the ring holds it; for tests.
    func count(atSeq seq: Int) -> Int? {
        entry(seq).map { Int(ring[$0].count) }
    }

    /// Describes the loop that the event `seq` (just recorded, `record` returned true) passes
    /// the threshold of, and remembers it; returns the seq that started its chain, and the loop.
    mutating func beginLoop(at seq: Int, storeName: (Int) -> String) -> (root: Int, loop: Loop)? {
        guard let slot = entry(seq) else { return nil }
        let loop = describe(slot, storeName: storeName)
        loops[ring[slot].root] = loop
        return (ring[slot].root, loop)
    }

    /// Notes where the loop started by `root` was reported.
    mutating func setProblem(_ index: Int, forLoopAt root: Int) {
        loops[root]?.problem = index
    }

    /// The message of `loop`: `cause loop: A.x → B.y → A.x … repeated 12 times (seq 40 → 41 → … → 63)`.
    func message(_ loop: Loop) -> String {
        var seqs = "seq \(loop.firstSeq)"
        if let second = loop.secondSeq, second != loop.lastSeq { seqs += " → \(second)" }
        if loop.lastSeq != loop.firstSeq {
            seqs += (loop.secondSeq == loop.lastSeq ? " → " : " → … → ") + "\(loop.lastSeq)"
        }
        return
            "cause loop: \(loop.cycle.joined(separator: " → ")) … repeated \(loop.count) times (\(seqs)), more than the \(maximumDepth) allowed (--max-cause-depth): each event was caused by the one before it; stores that react to each other's changes loop, so make one of them react only when the value it depends on really changed"
    }

    // MARK: The ring

    @inline(__always)
    private func slot(_ seq: Int) -> Int {
        seq & (ring.count &- 1)
    }

    /// The slot of the event with seq `seq`, when the ring still has it.
    @inline(__always)
    private func entry(_ seq: Int) -> Int? {
        guard !ring.isEmpty else { return nil }
        let slot = slot(seq)
        return ring[slot].seq == seq ? slot : nil
    }

    /// Grows the ring (a power of two, up to `capacity`) until it can hold `seq` without
    /// dropping a seq that a small trace still needs.
    private mutating func makeRoom(for seq: Int) {
        if ring.isEmpty { ring = Array(repeating: Entry(), count: 256) }
        guard seq >= ring.count, ring.count < Self.capacity else { return }
        var size = ring.count
        while size <= seq && size < Self.capacity { size <<= 1 }
        var bigger = Array(repeating: Entry(), count: size)
        for entry in ring where entry.seq != Int.min {
            bigger[entry.seq & (size - 1)] = entry
        }
        ring = bigger
    }

    /// Writes `entry` into its slot, noting the seq it drops and, while seqs go up, the latest seq
    /// of its store and action.
    @inline(__always)
    private mutating func keep(_ entry: Entry) {
        let slot = slot(entry.seq)
        if increasing {
            let dropped = ring[slot].seq
            if dropped != Int.min && dropped > droppedFloor { droppedFloor = dropped }
            latestOfKey[Self.key(entry.store, entry.action)] = entry.seq
        }
        ring[slot] = entry
    }

    @inline(__always)
    private static func key(_ store: Int32, _ action: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: store)) << 32 | UInt64(UInt32(bitPattern: action))
    }

    /// What `nearestByRuns` found.
    private enum Shortcut {
        /// The walk would find the event in this slot.
        case found(Int)
        /// The walk would find none.
        case none
        /// The shortcut cannot tell: walk.
        case unknown
    }

    /// What `nearest(from:store:action:)` returns, found without walking event by event, while
    /// the seqs recorded go up.
    ///
    /// The events up the chain have ever smaller seqs, so the nearest one with the store and
    /// action is the one of them with the largest seq, and none has a larger seq than `latest`,
    /// the latest recorded with them: if `latest` is up the chain, it is the answer. The chain is
    /// crossed a run at a time (`Entry.runStart`): a run holds `latest` when `latest` lies between
    /// its ends, and each of its events is `top − seq` steps from its top. Every event of a run
    /// above `droppedFloor` is still in the ring, so the walk would not have stopped short.
    private func nearestByRuns(from start: Int, store: Int32, action: Int32) -> Shortcut {
        guard let latest = latestOfKey[Self.key(store, action)] else { return .none }
        var node = start
        var steps = 0  // the walk's step at `node`
        while true {
            let top = ring[node].seq
            let runStart = ring[node].runStart
            // `latest` on another branch, after this event: the walk decides.
            guard latest <= top else { return .unknown }
            if latest >= runStart {
                guard latest > droppedFloor else { return .unknown }
                return steps &+ (top &- latest) < Self.walkLimit ? .found(slot(latest)) : .none
            }
            guard runStart > droppedFloor else { return .unknown }
            // The run's first event is checked at step `last`; its parent would be at `last + 1`.
            let last = steps &+ (top &- runStart)
            if last >= Self.walkLimit &- 1 { return .none }
            let first = ring[slot(runStart)]
            guard first.cause != Int.min, let parent = entry(first.cause) else { return .none }
            node = parent
            steps = last &+ 1
        }
    }

    /// The nearest event up the chain from the slot `start` (itself included) with this store
    /// and action.
    private func nearest(from start: Int, store: Int32, action: Int32) -> Int? {
        var current = start
        for _ in 0..<Self.walkLimit {
            let entry = ring[current]
            if entry.store == store && entry.action == action { return current }
            guard entry.cause != Int.min, let parent = self.entry(entry.cause) else { return nil }
            current = parent
        }
        return nil
    }

    /// The loop that the event in slot `start` passes the threshold of: its cycle, and the
    /// first seqs of its chain.
    private func describe(_ start: Int, storeName: (Int) -> String) -> Loop {
        let event = ring[start]
        func name(_ entry: Entry) -> String {
            let store = storeName(Int(entry.store))
            return entry.action < 0 ? "\(store).register" : "\(store).\(actions.name(Int(entry.action)))"
        }
        // Up the chain: the cycle ends at the previous event with the same store and action.
        var cycle = [name(event)]
        var current = start
        var oldest = start
        var afterOldest: Int?
        var walked = 0
        var cycleDone = false
        while walked < Self.walkLimit * (maximumDepth + 2) {
            let entry = ring[current]
            guard entry.cause != Int.min, let parent = self.entry(entry.cause) else { break }
            let parentEntry = ring[parent]
            if !cycleDone {
                cycle.append(name(parentEntry))
                cycleDone = parentEntry.store == event.store && parentEntry.action == event.action
            }
            if parentEntry.store == event.store && parentEntry.action == event.action {
                oldest = parent
                afterOldest = current
            }
            current = parent
            walked += 1
        }
        return Loop(
            problem: nil, store: event.store, action: event.action, cycle: cycle.reversed(),
            firstSeq: ring[oldest].seq, secondSeq: afterOldest.map { ring[$0].seq }, lastSeq: event.seq,
            count: Int(event.count))
    }

    /// Takes out the loops that can grow no more (the ring no longer holds their chains, so no
    /// later event can join them), once there are many: a trace of many short loops keeps
    /// memory bounded. The caller writes their final messages.
    mutating func takeFinishedLoops(before seq: Int) -> [Loop] {
        guard loops.count >= 1024 else { return [] }
        // `seq - capacity` without overflow: a seq near `Int.min` finishes nothing.
        let (oldest, overflow) = seq.subtractingReportingOverflow(Self.capacity)
        guard !overflow else { return [] }
        let finished = loops.filter { $0.value.lastSeq <= oldest }
        for root in finished.keys { loops[root] = nil }
        return Array(finished.values)
    }
}
