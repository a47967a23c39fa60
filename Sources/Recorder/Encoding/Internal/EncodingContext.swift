// The `Encoder` that `encode(to:)` implementations see while a `StreamingEncoder` runs.
//
// It is one pointer to the encoding's mutable state: the output, the stack of open frames, the
// reusable keyed containers, what is known of each type, and the memo. Being a trivial struct, it
// travels as `any Encoder` with no allocation and no reference counting, and the containers that
// hold it pay none either (a class reference, even `unowned(unsafe)`, is retained and released
// around most uses).
//
// How containers work: a container is the context and the index of its frame on the frame stack.
// A frame records whether it is an object or an array and whether it has members yet, so commas
// and closing brackets are written at the right time. When an operation arrives on a container,
// every frame above it (children that have finished) is closed first; when a nested value's
// `encode(to:)` returns, the frames it opened are closed. This matches how synthesized and
// hand-written `Codable` conformances use containers: in order, one container per value.
//
// Keys come out in the order `encode(to:)` writes them, which for synthesized conformances is the
// order of declaration; a dictionary's members come sorted by key, a set's elements sorted by
// their JSON (`RecordedEncoding`), so that the same state gives the same bytes in every process.
// A key the redaction covers gets the string "<redacted>" instead of its value, at any depth,
// before anything reaches the output; so does a `Secret`, wherever it is.
//
// `codingPath` is not tracked (it would cost an array append per key); it is always empty.
//
// The memory is owned by an `EncodingContextStorage` (which cannot be copied and frees it in its
// `deinit`); a context is a view, used only while its storage lives.
struct EncodingContext: Encoder, RedactingEncoder {
    struct State: ~Copyable {
        let output: JSONOutput
        let outputStorage: JSONOutputStorage
        var frames = FrameStack()
        /// The frame index that a container requested from this encoder right now would occupy.
        var valueDepth = 0
        /// A frame was opened deeper than `NestingTooDeep.maximumDepth` allows: the value being
        /// encoded throws `NestingTooDeep` once its `encode(to:)` returns.
        var isTooDeep = false
        let redaction: RedactionMatcher
        var containers = KeyedContainerCache()
        var types = TypeTable()
        /// The recorder's memory of parts of earlier states (`EncodingMemo`); disabled when not
        /// wanted.
        var memo: EncodingMemo
        /// How many class instances have been encoded so far: a part in whose encoding this
        /// grew can change in place, and is not remembered.
        var referencesSeen = 0
        /// Whether collections that can be compared by storage are written as tokens, and kept
        /// in `parts`, instead of as their JSON: a state encoded for a patch (`ShallowState`).
        var shallow = false
        var parts: [ShallowState.Part] = []
        /// A second context whose output is thrown away: it absorbs writes into a redacted
        /// nested container. Present when something can be redacted by key.
        let discard: EncodingContext?
        /// Owns `discard`'s memory.
        let discardStorage: EncodingContextStorage?
        /// Whether a `Secret` is written as its value: only for an encoding that stays in the
        /// process (time travel keeps a live secret through it), never for a trace.
        var revealsSecrets = false

        init(redaction: Redaction, remembers: Bool) {
            let outputStorage = JSONOutputStorage()
            output = outputStorage.output
            self.outputStorage = outputStorage
            self.redaction = RedactionMatcher(redaction)
            memo = EncodingMemo(enabled: remembers)
            if self.redaction.isActive {
                let discardStorage = EncodingContextStorage(redaction: .none, remembers: false)
                discard = discardStorage.context
                self.discardStorage = consume discardStorage
            } else {
                discard = nil
                discardStorage = nil
            }
        }
    }

    let state: UnsafeMutablePointer<State>

    var output: JSONOutput {
        @inline(__always) get { state.pointee.output }
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Forgets any half-written value (after an `encode(to:)` that threw).
    func reset(to mark: Int) {
        state.pointee.output.count = mark
        state.pointee.frames.count = 0
        state.pointee.valueDepth = 0
        state.pointee.isTooDeep = false
    }

    /// Throws `NestingTooDeep` when a frame was opened too deep since the last check.
    @inline(__always)
    func checkNesting() throws {
        if state.pointee.isTooDeep {
            state.pointee.isTooDeep = false
            throw NestingTooDeep()
        }
    }

    var valueDepth: Int {
        @inline(__always) get { state.pointee.valueDepth }
        @inline(__always) nonmutating set { state.pointee.valueDepth = newValue }
    }

    // MARK: Encoding a value

    /// Appends the JSON text of `value`, closing the frames it opens. Not inlined into the
    /// containers that call it: a copy in each cost several kilobytes, a call costs little.
    @inline(never)
    func encodeValue<T: Encodable>(_ value: T) throws {
        // Primitive fast paths: generic containers (Array, Optional, Dictionary) reach us through
        // the generic `encode<T>` requirement even for `Int` or `String` elements.
        if T.self == String.self {
            output.appendString(knownCast(value, to: String.self))
            return
        }
        if T.self == Int.self {
            output.append(Int64(knownCast(value, to: Int.self)))
            return
        }
        if T.self == Double.self {
            output.append(knownCast(value, to: Double.self))
            return
        }
        if T.self == Bool.self {
            appendBool(knownCast(value, to: Bool.self))
            return
        }
        if state.pointee.shallow, try appendPart(value) { return }
        // Arrays of those, common in states (tags, ids, amounts), written in one loop instead of
        // through `Array.encode(to:)`'s container and a generic call per element. The bytes are
        // the same: `[`, the elements joined by `,`, `]`.
        if T.self == [String].self {
            appendArray(knownCast(value, to: [String].self), output.appendString)
            return
        }
        if T.self == [Int].self {
            appendArray(knownCast(value, to: [Int].self)) { output.append(Int64($0)) }
            return
        }
        if T.self == [Double].self {
            appendArray(knownCast(value, to: [Double].self), output.append)
            return
        }
        if T.self == [Bool].self {
            appendArray(knownCast(value, to: [Bool].self), appendBool)
            return
        }
        let index = state.pointee.types.index(of: T.self)
        guard index >= 0 else {
            try encodeUnlisted(value)
            return
        }
        let entry = state.pointee.types.entry(at: index)
        if entry.pointee.isReference { state.pointee.referencesSeen &+= 1 }
        if entry.pointee.memo != .never && state.pointee.memo.isEnabled {
            if entry.pointee.resting == 0 {
                try encodeRemembering(value, entry)
                return
            }
            entry.pointee.resting &-= 1
        }
        try encodeFresh(value, entry.pointee.writing)
    }

    /// Encodes a value whose type the full type table does not list.
    @inline(never)
    private func encodeUnlisted<T: Encodable>(_ value: T) throws {
        let entry = TypeTable.classify(T.self)
        if entry.isReference { state.pointee.referencesSeen &+= 1 }
        try encodeFresh(value, entry.writing)
    }

    /// Encodes a value without the memo, the way its type's entry says.
    @inline(__always)
    private func encodeFresh<T: Encodable>(_ value: T, _ writing: TypeTable.Writing) throws {
        switch writing {
        case .plain:
            try encodeComposite(value)
        case .secret:
            if state.pointee.revealsSecrets, let secret = value as? any RevealableSecret {
                try secret.encodeValue(in: self)
            } else {
                appendRedacted()
            }
        case .set, .dictionary, .namedPairs:
            let mark = output.count
            // Sorted by their JSON: no tokens inside, which would sort otherwise.
            let shallow = state.pointee.shallow
            state.pointee.shallow = false
            try encodeComposite(value)
            state.pointee.shallow = shallow
            StableOrder.rewrite(output, from: mark, as: writing, in: self)
        case .date, .decimal, .url, .data:
            try encodeFoundationValue(value, as: writing)
        }
    }

    /// Encodes a value that the memo may hold, copying its JSON from the memo when it is there.
    private func encodeRemembering<T: Encodable>(_ value: T, _ entry: UnsafeMutablePointer<TypeTable.Entry>) throws {
        let output = state.pointee.output
        guard case .missed(let hash) = state.pointee.memo.append(value, to: output) else {
            entry.pointee.hits &+= 1
            return
        }
        entry.pointee.misses &+= 1
        let writing = entry.pointee.writing
        if entry.pointee.memo == .bits && entry.pointee.misses >= 32
            && entry.pointee.misses > entry.pointee.hits &* 4
        {
            // Mostly misses: rest, then try again.
            entry.pointee.resting = 1024
            entry.pointee.hits = 0
            entry.pointee.misses = 0
            try encodeFresh(value, writing)
            return
        }
        if entry.pointee.memo == .storage && !entry.pointee.scanned {
            var sawElements = false
            if ReferenceScan.holdsReference(value, sawChildren: &sawElements) {
                entry.pointee.memo = .never
                try encodeFresh(value, writing)
                return
            }
            entry.pointee.scanned = sawElements
        }
        let mark = output.count
        let referencesBefore = state.pointee.referencesSeen
        try encodeFresh(value, writing)
        guard state.pointee.referencesSeen == referencesBefore else {
            // A class instance inside: this value's JSON can change while its storage stays.
            entry.pointee.memo = .never
            return
        }
        if output.count - mark > 2 { entry.pointee.verified = true }
        state.pointee.memo.remember(value, kind: entry.pointee.memo, hash: hash, json: output.bytes(from: mark))
    }

    /// In shallow mode, writes a token in place of a collection that can be compared by its
    /// storage and returns true; returns false for a value to encode as usual. A collection type
    /// is trusted as the memo trusts it: `ReferenceScan` found no class instance in it, and a
    /// value with elements was encoded once with none (until then it is encoded, here).
    @inline(never)
    private func appendPart<T: Encodable>(_ value: T) throws -> Bool {
        let index = state.pointee.types.index(of: T.self)
        guard index >= 0 else { return false }
        let entry = state.pointee.types.entry(at: index)
        guard entry.pointee.memo == .storage else { return false }
        if !entry.pointee.verified {
            var sawElements = false
            if !entry.pointee.scanned && ReferenceScan.holdsReference(value, sawChildren: &sawElements) {
                entry.pointee.memo = .never
                return false
            }
            entry.pointee.scanned = entry.pointee.scanned || sawElements
            let mark = output.count
            let referencesBefore = state.pointee.referencesSeen
            try encodeFresh(value, entry.pointee.writing)
            if state.pointee.referencesSeen != referencesBefore {
                entry.pointee.memo = .never
            } else if output.count - mark > 2 {
                entry.pointee.verified = true
            }
            return true
        }
        let word = withUnsafeBytes(of: value) { $0.load(as: UInt.self) }
        let part = ShallowState.Part(value: value, word: word, type: UInt(bitPattern: ObjectIdentifier(T.self)))
        state.pointee.parts.append(part)
        ShallowState.appendToken(of: part, to: output)
        return true
    }

    /// Appends the JSON of `value` as a value of its own (not a member of an open container),
    /// without starting a new top-level value for the memo.
    func appendAlone<T: Encodable>(_ value: T) throws {
        let savedDepth = state.pointee.valueDepth
        defer { state.pointee.valueDepth = savedDepth }
        let depth = state.pointee.frames.count
        try encodeValue(value)
        try checkNesting()
        closeFrames(downTo: depth)
    }

    /// How many parts the memo holds now (for tests).
    var rememberedCount: Int {
        state.pointee.memo.rememberedCount
    }

    /// Starts a top-level value (see `EncodingMemo.beginValue`).
    func beginTopLevelValue() {
        if state.pointee.memo.isEnabled { state.pointee.memo.beginValue() }
    }

    @inline(__always)
    private func appendArray<Element>(_ elements: [Element], _ appendElement: (Element) -> Void) {
        let output = state.pointee.output
        // A level without a frame.
        if state.pointee.frames.count >= NestingTooDeep.maximumDepth { state.pointee.isTooDeep = true }
        output.append(UInt8(ascii: "["))
        var first = true
        for element in elements {
            if first { first = false } else { output.append(UInt8(ascii: ",")) }
            appendElement(element)
        }
        output.append(UInt8(ascii: "]"))
    }

    /// Encodes a value through its own `encode(to:)`.
    func encodeComposite<T: Encodable>(_ value: T) throws {
        let depth = state.pointee.frames.count
        let output = state.pointee.output
        let mark = output.count
        let savedDepth = state.pointee.valueDepth
        state.pointee.valueDepth = depth
        try value.encode(to: self)
        try checkNesting()
        state.pointee.valueDepth = savedDepth
        if output.count == mark {
            // The value encoded nothing at all; `JSONEncoder` writes an empty object here too.
            output.append("{}")
        }
        closeFrames(downTo: depth)
    }

    @inline(__always)
    func appendBool(_ value: Bool) {
        if value { output.append("true") } else { output.append("false") }
    }

    /// Writes `"<redacted>"` in place of a value.
    func appendRedacted() {
        output.append("\"<redacted>\"")
    }

    // MARK: Keys

    /// Starts a member of the object at `frame`: closes finished children, writes the comma and
    /// `"key":`; returns false, with `"<redacted>"` written, when the key is redacted. Not
    /// inlined: each of the keyed container's many `encode` methods calls it, and a copy in each
    /// cost more code than the call costs time.
    @inline(never)
    func beginMember(of frame: Int, key: String) -> Bool {
        beginElement(of: frame)
        return writeKey(key)
    }

    /// Writes `"key":`, or `"key":"<redacted>"` and returns false when the key is redacted.
    @inline(__always)
    func writeKey(_ key: String) -> Bool {
        let output = state.pointee.output
        output.appendKey(key)
        if state.pointee.redaction.isActive && state.pointee.redaction.covers(key) {
            appendRedacted()
            return false
        }
        return true
    }

    func isRedacted(_ key: String) -> Bool {
        state.pointee.redaction.isActive && state.pointee.redaction.covers(key)
    }

    // MARK: Frames

    /// Closes every open frame at index `depth` or above.
    @inline(__always)
    func closeFrames(downTo depth: Int) {
        if state.pointee.frames.count > depth { closeFramesSlowly(downTo: depth) }
    }

    private func closeFramesSlowly(downTo depth: Int) {
        let output = state.pointee.output
        var count = state.pointee.frames.count
        while count > depth {
            count &-= 1
            output.append(state.pointee.frames.closer(at: count))
        }
        state.pointee.frames.count = count
    }

    /// Starts a member of the frame at `index`: closes finished children, writes the comma.
    @inline(__always)
    func beginElement(of index: Int) {
        if state.pointee.frames.count > index &+ 1 { closeFramesSlowly(downTo: index &+ 1) }
        if state.pointee.frames.addMember(at: index) { state.pointee.output.append(UInt8(ascii: ",")) }
    }

    /// Writes `{` or `[` and pushes its frame; returns the frame's index.
    @inline(__always)
    func openFrame(array: Bool) -> Int {
        state.pointee.output.append(array ? UInt8(ascii: "[") : UInt8(ascii: "{"))
        if state.pointee.frames.count >= NestingTooDeep.maximumDepth { state.pointee.isTooDeep = true }
        return state.pointee.frames.push(array: array)
    }

    /// The frame for the value now being encoded: a new one, or the one this value already opened
    /// (a conformance may ask for its container twice).
    @inline(__always)
    private func frameForCurrentValue(array: Bool) -> Int {
        let valueDepth = state.pointee.valueDepth
        if state.pointee.frames.count > valueDepth {
            closeFrames(downTo: valueDepth &+ 1)
            return valueDepth
        }
        return openFrame(array: array)
    }

    // MARK: Encoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        keyedContainer(Key.self, frame: frameForCurrentValue(array: false))
    }

    /// A keyed container for `frame`, from the cache when one was made before.
    @inline(__always)
    func keyedContainer<Key: CodingKey>(_ type: Key.Type, frame: Int) -> KeyedEncodingContainer<Key> {
        state.pointee.containers.container(Key.self, frame: frame, context: self)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(context: self, frame: frameForCurrentValue(array: true))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(context: self)
    }

    /// The discarding context, reset, for writes under a redacted key.
    func discardingContext() -> EncodingContext {
        // Present whenever a key can be redacted, which is the only way here.
        let discard = state.pointee.discard.unsafelyUnwrapped
        discard.reset(to: 0)
        return discard
    }
}
