/// How large a state rebuilt by JSON Patch is, kept next to it so that every operation can be
/// checked against the limits a parsed state obeys, without walking the whole state each time.
///
/// A state read from a line cannot be nested deeper than the parser allows, and its size is
/// bounded by the line's. A patch can break both with a few bytes: `copy "" → /x` repeated nests
/// one level deeper each time, and `copy "" → /kN` doubles the state each time (64 of them in
/// 2.6 KB make 2^64 values, shared by reference, until something walks them). So a rebuilt state
/// obeys these limits, and an operation that would break one does not apply (`bad-patch`):
///
/// - it is nested at most `maximumDepth` levels (1,023): as deep as a `state` on an event line
///   can be, since the event's own object is one of the parser's 1,024 levels;
/// - it holds at most `valueLimit` values (by default `maximumValues`, 16,777,216: every array,
///   object, string, number, boolean and null counts one) more than the trace spells out: the
///   values of the whole state it was rebuilt from and those the patches' `add` and `replace`
///   operations write since. Only the growth that no byte of the trace pays for, the values
///   `copy` duplicates, is bounded: a state as large as a parsed one (a whole state of 17,000,000
///   values, then a patch that replaces one number) is rebuilt as it was written, and a copy bomb
///   stops at 16,777,216 values more than its lines hold. The format is silent on size; this
///   bound is far above the largest states the recorder is benchmarked on (200,000 documents),
///   and low enough that the values copies add are shown, diffed and converted within seconds
///   and a gigabyte.
///
/// The size is counted as the state changes: a value a patch adds is walked (its bytes are in
/// the line, so the walk is paid for by reading them), a value removed or replaced is walked to
/// subtract it (each value is removed at most once after it was added), and a value copied or
/// moved within the state is walked with a budget of `valueLimit` per patch, so that a copy
/// bomb stops as soon as it passes the bound, before anything is built.
///
/// Within one patch, the size of each large container walked is remembered by the identity of
/// its storage (which the memo holds, so it is neither freed nor changed in place meanwhile):
/// a copy shares its source's storage, so copying the state into itself again and again walks
/// each copy once, and a 2.6 KB copy bomb is refused in microseconds.
package struct RebuiltStateSize {
    /// The deepest nesting of a rebuilt state: a parsed `state` on an event line's can be no deeper.
    static let maximumDepth = JSONParser.maximumDepth - 1
    /// The deepest nesting of this state: `maximumDepth` for a trace's states, or the parser's
    /// own limit for a document of its own (`JSONPatch.apply`, whose result must parse again).
    let depthLimit: Int
    /// The most values copies may add to a rebuilt state beyond those its trace spells out, by
    /// default (`valueLimit`).
    package static let maximumValues = 1 << 24
    /// The most values this state may hold beyond `spelled`: `maximumValues`, or less in a test
    /// that checks the bound without building 16,777,216 values.
    let valueLimit: Int

    /// Why an operation does not apply: the message, without the operation.
    struct Excess: Error {
        var message: String
    }

    /// The number of values the state holds (at least; a member name written twice in an
    /// object, removed by name, leaves it counting more than there are).
    private(set) var values: Int
    /// The values the trace spells out for this state: those of the whole state it was rebuilt
    /// from and of every value an `add` or `replace` wrote since (never lowered: what a line
    /// held was read, and its bytes pay for as many values again).
    private(set) var spelled: Int
    /// At least the state's nesting depth: raised where a value is placed, never lowered but by
    /// a replacement of the whole state.
    private(set) var depth: Int
    /// The values of the state walked for copies and moves in the current patch.
    private var walked = 0
    /// The containers of at least `memoThreshold` values walked in the current patch: storage →
    /// the elements (held, so that the storage stays theirs), their values and depth.
    private var memo: [UnsafeRawPointer: (elements: [JSONValue], values: Int, depth: Int)] = [:]
    /// The fewest values a container holds (below it) to be remembered in `memo`.
    private static let memoThreshold = 256

    /// The size of `state`, walked once, to be kept within `depthLimit` levels and to hold at
    /// most `valueLimit` values more than `state` and the values patches write after it.
    package init(of state: JSONValue, depthLimit: Int = Self.maximumDepth, valueLimit: Int = Self.maximumValues) {
        self.depthLimit = depthLimit
        self.valueLimit = max(0, valueLimit)
        var memo: [UnsafeRawPointer: (elements: [JSONValue], values: Int, depth: Int)] = [:]
        let measure = Self.measure(state, cap: .max, memo: &memo)
        values = measure?.values ?? .max
        spelled = values
        depth = measure?.depth ?? .max
    }

    /// Starts a new patch: its copies and moves have the whole budget again.
    mutating func startPatch() {
        walked = 0
    }

    /// Ends a patch: lets go of the containers it remembered, so that the state's own can be
    /// changed in place again.
    mutating func endPatch() {
        memo = [:]
    }

    /// `incoming` takes the place of `outgoing` (nil: it is inserted) at a path of `pathLength`
    /// tokens. `fromState`: `incoming` is a value of the state (a copy), walked on the budget and
    /// bounded; else it is written in the patch, which pays for its values.
    mutating func place(_ incoming: JSONValue, replacing outgoing: JSONValue?, pathLength: Int, fromState: Bool)
        throws(Excess)
    {
        let kept = values - (outgoing.map { count($0) } ?? 0)
        guard fromState else {
            // Written in the line: its values are paid for by its bytes, so only its depth counts.
            let measure = Self.measure(incoming, cap: .max, memo: &memo) ?? (values: .max, depth: .max)
            try checkDepth(pathLength + measure.depth)
            values = kept &+ measure.values
            spelled = spelled &+ measure.values
            depth = pathLength == 0 ? measure.depth : max(depth, pathLength + measure.depth)
            return
        }
        let room = limit - kept
        let budget = valueLimit - walked
        guard let measure = Self.measure(incoming, cap: min(room, budget), memo: &memo) else {
            if budget < room { throw tooMuchCopied }
            throw tooLarge
        }
        walked += measure.values
        try checkDepth(pathLength + measure.depth)
        values = kept + measure.values
        depth = pathLength == 0 ? measure.depth : max(depth, pathLength + measure.depth)
    }

    /// The most values the state may hold: those spelled out, and `valueLimit` more.
    private var limit: Int {
        spelled > Int.max - valueLimit ? Int.max : spelled + valueLimit
    }

    /// `outgoing` is removed from the state.
    mutating func remove(_ outgoing: JSONValue?) {
        if let outgoing { values -= count(outgoing) }
    }

    /// `moved`, taken from a path of `fromLength` tokens, is placed at a path of `pathLength`
    /// tokens in place of `outgoing` (nil: inserted). Only a move deeper than the state's depth
    /// allows without looking walks `moved`, on the budget.
    mutating func move(_ moved: JSONValue, fromLength: Int, pathLength: Int, replacing outgoing: JSONValue?)
        throws(Excess)
    {
        remove(outgoing)
        let bound = pathLength + max(0, depth - fromLength)
        if bound <= depthLimit {
            depth = max(depth, bound)
            return
        }
        guard let measure = Self.measure(moved, cap: valueLimit - walked, memo: &memo) else {
            throw tooMuchCopied
        }
        walked += measure.values
        try checkDepth(pathLength + measure.depth)
        depth = max(depth, pathLength + measure.depth)
    }

    private func checkDepth(_ newDepth: Int) throws(Excess) {
        guard newDepth <= depthLimit else {
            let why =
                depthLimit == Self.maximumDepth
                ? "as deep as a \"state\" on an event line can be" : "as deep as the parser reads"
            throw Excess(
                message:
                    "the state would be nested \(newDepth) levels deep; a state may be nested at most \(depthLimit) levels, \(why)"
            )
        }
    }

    private var tooLarge: Excess {
        Excess(
            message:
                "the state would hold more than \(Self.grouped(valueLimit)) values beyond the \(Self.grouped(spelled)) its lines spell out (its latest whole state and the values patches wrote since), the most that copies may add (a copy of the state into itself, repeated, doubles it each time)"
        )
    }

    private var tooMuchCopied: Excess {
        Excess(
            message:
                "the patch copies or moves more than \(Self.grouped(valueLimit)) values of the state in all, more than copies may add to a state"
        )
    }

    /// `number` with its thousands grouped by commas: 16,777,216.
    static func grouped(_ number: Int) -> String {
        var digits = String(number.magnitude)
        var groups: [Substring] = []
        while digits.count > 3 {
            groups.insert(digits.suffix(3), at: 0)
            digits.removeLast(3)
        }
        groups.insert(Substring(digits), at: 0)
        return (number < 0 ? "-" : "") + groups.joined(separator: ",")
    }

    /// The values `value` holds, itself included.
    private mutating func count(_ value: JSONValue) -> Int {
        Self.measure(value, cap: .max, memo: &memo)?.values ?? .max
    }

    /// The values `value` holds and its nesting depth (0 for a scalar, 1 for `[]`); nil as soon
    /// as it holds more than `cap` values, having walked no more of it.
    private static func measure(
        _ value: JSONValue, cap: Int, memo: inout [UnsafeRawPointer: (elements: [JSONValue], values: Int, depth: Int)]
    ) -> (values: Int, depth: Int)? {
        var values = 0
        guard let depth = walk(value, &values, cap, &memo) else { return nil }
        return (values, depth)
    }

    /// Counts `value`'s values into `values`; its depth, or nil once `values` passes `cap`.
    /// Recursion is as deep as the value: a parsed one or a rebuilt state, bounded by the limits.
    private static func walk(
        _ value: JSONValue, _ values: inout Int, _ cap: Int,
        _ memo: inout [UnsafeRawPointer: (elements: [JSONValue], values: Int, depth: Int)]
    ) -> Int? {
        values += 1
        guard values <= cap else { return nil }
        let elements: [JSONValue]
        switch value {
        case .array(let array): elements = array
        case .object(let object): elements = object.memberValues
        case .null, .bool, .number, .string: return 0
        }
        let storage = elements.isEmpty ? nil : elements.withUnsafeBufferPointer { $0.baseAddress }
        if let storage, !memo.isEmpty, let known = memo[UnsafeRawPointer(storage)] {
            values += known.values
            return values <= cap ? known.depth : nil
        }
        let start = values
        var deepest = 0
        for element in elements {
            guard let depth = walk(element, &values, cap, &memo) else { return nil }
            deepest = max(deepest, depth)
        }
        if let storage, values - start >= memoThreshold {
            memo[UnsafeRawPointer(storage)] = (elements, values - start, deepest + 1)
        }
        return deepest + 1
    }
}
