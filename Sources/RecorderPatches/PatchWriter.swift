import Recorder
@_spi(RewindInternals) internal import RewindSupport

/// Writes the RFC 6902 JSON Patch that turns one state into the next (shared/TRACE_FORMAT.md,
/// "Version 2: patches"), from the two states encoded for patches (`ShallowState`).
///
/// It compares only what changed. Two texts with the same bytes are the same value, and so are
/// two tokens with the same bytes (the same storage): both are skipped at once. Objects are
/// compared member by member (by name); arrays element by element after their common first and
/// last elements, so that one insertion or removal anywhere is one operation; two tokens that
/// name arrays of one type, by their elements' memory (`ElementView`), so that only elements
/// whose data differs are encoded, old and new, and compared in turn. Any other token (a
/// dictionary, a set) is encoded in full, through the memo, which usually holds the old one, and
/// compared as JSON. What differs in kind, or is another number, string or literal, is replaced.
///
/// Each operation is valid at the moment it applies: elements are removed from the last and
/// added from the first (`-` at the end), and members keep the order the encoder wrote (see
/// `diffObjects`). Paths are JSON Pointers (RFC 6901: `~` is written `~0`, `/` is written
/// `~1`). Values are the encoder's own JSON, redacted as a state is. Past `limit` bytes, or when
/// a part cannot be encoded, it throws, and the recorder writes the whole state instead.
struct PatchWriter {
    /// Why no patch was written: it would be too large, or a part failed to encode.
    struct Unwritten: Error {}

    private let encoder: StreamingEncoder
    private let output: JSONOutput
    private let start: Int
    private let limit: Int
    /// The JSON Pointer of the value being compared, as the content of a JSON string.
    private var path: [UInt8] = []
    /// Every part the texts being compared may name.
    private var parts: [ShallowState.Part]
    /// The mask of each array element type met (`ElementMask`).
    private let masks: ElementMask.Cache
    private var operations = 0

    /// Appends the patch from `old` to `new`; returns how many bytes it took.
    /// - Throws: `Unwritten` past `limit` bytes, or the error of an `encode(to:)`.
    static func append(
        from old: ShallowState, to new: ShallowState, limit: Int, masks: ElementMask.Cache, encoder: StreamingEncoder
    ) throws -> Int {
        var writer = PatchWriter(
            encoder: encoder, output: encoder.output, start: encoder.output.count, limit: limit,
            parts: old.parts + new.parts, masks: masks)
        do {
            writer.output.append(UInt8(ascii: "["))
            try writer.diff(old.text, old.text.indices, new.text, new.text.indices)
            writer.output.append(UInt8(ascii: "]"))
            let size = writer.output.count - writer.start
            guard size <= limit else { throw Unwritten() }
            return size
        } catch {
            encoder.reset(to: writer.start)
            throw error
        }
    }

    /// Appends the JSON of `state`, its tokens replaced by the JSON of their collections.
    static func appendWhole(_ state: ShallowState, encoder: StreamingEncoder) throws {
        let writer = PatchWriter(
            encoder: encoder, output: encoder.output, start: encoder.output.count, limit: 0, parts: state.parts,
            masks: ElementMask.Cache())
        do {
            try writer.appendExpanded(state.text, state.text.indices)
        } catch {
            encoder.reset(to: writer.start)
            throw error
        }
    }

    // MARK: Comparing

    private mutating func diff(_ old: [UInt8], _ oldRange: Range<Int>, _ new: [UInt8], _ newRange: Range<Int>) throws {
        if Self.same(old, oldRange, new, newRange) { return }
        let token = ShallowState.tokenStart
        let (oldKind, newKind) = (old[oldRange.lowerBound], new[newRange.lowerBound])
        if oldKind == token || newKind == token {
            if oldKind == token && newKind == token, try diffArrays(old, oldRange.lowerBound, new, newRange.lowerBound)
            {
                return
            }
            let oldText = try oldKind == token ? expanded(old, oldRange) : Array(old[oldRange])
            let newText = try newKind == token ? expanded(new, newRange) : Array(new[newRange])
            try diff(oldText, oldText.indices, newText, newText.indices)
        } else if oldKind == UInt8(ascii: "{") && newKind == UInt8(ascii: "{") {
            try diffObjects(old, oldRange, new, newRange)
        } else if oldKind == UInt8(ascii: "[") && newKind == UInt8(ascii: "[") {
            let (oldElements, newElements) = (Self.elements(old, oldRange), Self.elements(new, newRange))
            let same = { Self.same(old, oldElements[$0], new, newElements[$1]) }
            try diffSequences(
                oldCount: oldElements.count, newCount: newElements.count,
                leading: { oldIndex, newIndex, count in Self.run(upTo: count) { same(oldIndex + $0, newIndex + $0) } },
                trailing: { oldEnd, newEnd, count in Self.run(upTo: count) { same(oldEnd - 1 - $0, newEnd - 1 - $0) } },
                pair: { try $0.diff(old, oldElements[$1], new, newElements[$1]) },
                appendNew: { try $0.appendExpanded(new, newElements[$1]) })
        } else {
            try begin(.replace)
            try appendExpanded(new, newRange)
            try end()
        }
    }

    /// Compares two objects by member name. Readers keep an object's members in the order they
    /// come (an added member goes last), so that a rebuilt state has the bytes of the state:
    /// members stay where they are while they come in their old order, and from the first that
    /// does not (an added one, usually), each member is added, or moved to the end, in the new
    /// order. A move to the end is two moves, through a name the object does not have (a move to
    /// where the member is changes nothing), which copy no value.
    private mutating func diffObjects(_ old: [UInt8], _ oldRange: Range<Int>, _ new: [UInt8], _ newRange: Range<Int>)
        throws
    {
        let (oldMembers, newMembers) = (Self.members(old, oldRange), Self.members(new, newRange))
        var kept = [Bool](repeating: false, count: oldMembers.count)
        var cursor = 0
        let found = newMembers.map { member -> Int? in
            // Members usually come in the same order on both sides (declaration order, or sorted).
            let index =
                (cursor..<oldMembers.count).first { Self.same(old, oldMembers[$0].key, new, member.key) }
                ?? (0..<cursor).first { Self.same(old, oldMembers[$0].key, new, member.key) }
            if let index {
                kept[index] = true
                cursor = index + 1
            }
            return index
        }
        for (index, member) in oldMembers.enumerated() where !kept[index] {
            let depth = pushKey(old, member.key)
            try begin(.remove)
            try end()
            path.removeSubrange(depth...)
        }
        var previous = -1
        var appending = false
        var spare: [UInt8] = []
        for (member, index) in zip(newMembers, found) {
            let depth = pushKey(new, member.key)
            if let index {
                try diff(old, oldMembers[index].value, new, member.value)
                appending = appending || index < previous
                previous = index
                if appending {
                    if spare.isEmpty { spare = Self.unusedName(old, oldMembers, new, newMembers) }
                    let (member, through) = (path, path[...depth] + spare)
                    path = Array(through)
                    try begin(.move, from: member)
                    try end()
                    path = member
                    try begin(.move, from: Array(through))
                    try end()
                }
            } else {
                appending = true
                try begin(.add)
                try appendExpanded(new, member.value)
                try end()
            }
            path.removeSubrange(depth...)
        }
    }

    /// Compares two arrays named by tokens element by element; false when they are not arrays
    /// of one type (then they are compared as JSON).
    private mutating func diffArrays(_ old: [UInt8], _ oldToken: Int, _ new: [UInt8], _ newToken: Int) throws -> Bool {
        guard let oldPart = ShallowState.part(at: oldToken, of: old, in: parts),
            let newPart = ShallowState.part(at: newToken, of: new, in: parts), oldPart.type == newPart.type
        else { return false }
        return try ElementView.with(oldPart.value, encoder: encoder, masks: masks) { oldElements in
            _ = try ElementView.with(newPart.value, encoder: encoder, masks: masks) { newElements in
                try diffSequences(
                    oldCount: oldElements.count, newCount: newElements.count,
                    leading: { oldElements.sameRun(from: $0, as: newElements, $1, count: $2) },
                    trailing: { oldElements.sameRun(before: $0, as: newElements, $1, count: $2) },
                    pair: { writer, index in
                        let oldText = try writer.shallowText { try oldElements.encode(index) }
                        let newText = try writer.shallowText { try newElements.encode(index) }
                        try writer.diff(oldText, oldText.indices, newText, newText.indices)
                    },
                    appendNew: { try newElements.encode($1) })
            }
        }
    }

    /// Aligns two sequences by their common first and last elements; compares the elements
    /// between them pairwise (skipping the runs that are the same), then removes the old ones
    /// left over (from the last) or adds the new ones (from the first).
    ///
    /// `leading(old, new, count)` says how many elements from old index `old` and new index `new`
    /// on are the same, one after another, up to `count`; `trailing(oldEnd, newEnd, count)` the
    /// same going back from before those ends.
    private mutating func diffSequences(
        oldCount: Int, newCount: Int, leading: (Int, Int, Int) -> Int, trailing: (Int, Int, Int) -> Int,
        pair: (inout PatchWriter, Int) throws -> Void, appendNew: (inout PatchWriter, Int) throws -> Void
    ) throws {
        let shorter = min(oldCount, newCount)
        let prefix = leading(0, 0, shorter)
        let suffix = trailing(oldCount, newCount, shorter - prefix)
        let paired = shorter - prefix - suffix
        var index = prefix
        while index < prefix + paired {
            index += leading(index, index, prefix + paired - index)
            guard index < prefix + paired else { break }
            let depth = pushIndex(index)
            try pair(&self, index)
            path.removeSubrange(depth...)
            index += 1
        }
        for index in stride(from: oldCount - suffix - 1, through: prefix + paired, by: -1) {
            let depth = pushIndex(index)
            try begin(.remove)
            try end()
            path.removeSubrange(depth...)
        }
        for index in (prefix + paired)..<max(prefix + paired, newCount - suffix) {
            let depth = pushIndex(suffix == 0 ? -1 : index)
            try begin(.add)
            try appendNew(&self, index)
            try end()
            path.removeSubrange(depth...)
        }
    }

    // MARK: Writing

    private enum Operation {
        case add, remove, replace, move
    }

    /// Starts an operation at `path`: an `add` or a `replace` up to its value, which the caller
    /// appends, a `remove`, or a `move` from `from`. `end` finishes it.
    private mutating func begin(_ kind: Operation, from: [UInt8] = []) throws {
        output.append(operations == 0 ? "{\"op\":\"" : ",{\"op\":\"")
        operations += 1
        switch kind {
        case .add: output.append("add")
        case .remove: output.append("remove")
        case .replace: output.append("replace")
        case .move:
            output.append("move\",\"from\":\"")
            from.withUnsafeBytes { output.append($0) }
        }
        output.append("\",\"path\":\"")
        path.withUnsafeBytes { output.append($0) }
        output.append(kind == .add || kind == .replace ? "\",\"value\":" : "\"")
    }

    private func end() throws {
        output.append(UInt8(ascii: "}"))
        if output.count - start > limit { throw Unwritten() }
    }

    /// Appends `text[range]` with each token replaced by the JSON of its collection.
    private func appendExpanded(_ text: [UInt8], _ range: Range<Int>) throws {
        var run = range.lowerBound
        // The encoder escapes control characters in strings: a raw 0x01 starts a token.
        while let token = text[run..<range.upperBound].firstIndex(of: ShallowState.tokenStart) {
            text.withUnsafeBytes { output.append(UnsafeRawBufferPointer(rebasing: $0[run..<token])) }
            guard let part = ShallowState.part(at: token, of: text, in: parts) else { throw Unwritten() }
            try encoder.appendAlone(part.value)
            run = token + ShallowState.tokenLength
        }
        text.withUnsafeBytes { output.append(UnsafeRawBufferPointer(rebasing: $0[run..<range.upperBound])) }
    }

    /// `text[range]` with its tokens replaced by the JSON of their collections.
    private func expanded(_ text: [UInt8], _ range: Range<Int>) throws -> [UInt8] {
        let mark = output.count
        defer { output.count = mark }
        try appendExpanded(text, range)
        return Array(output.bytes(from: mark))
    }

    /// What `encode` appends in shallow mode, as a text whose parts this writer now knows.
    private mutating func shallowText(_ encode: () throws -> Void) throws -> [UInt8] {
        let (text, found) = try encoder.shallowText(encode)
        parts.append(contentsOf: found)
        return text
    }

    /// Appends `/` and a member's name (its JSON text without the quotes, `~` and `/` escaped) to
    /// the path; returns where the segment starts.
    private mutating func pushKey(_ text: [UInt8], _ key: Range<Int>) -> Int {
        let depth = path.count
        path.append(UInt8(ascii: "/"))
        for byte in text[(key.lowerBound + 1)..<(key.upperBound - 1)] {
            if byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/") {
                path += [UInt8(ascii: "~"), byte == UInt8(ascii: "~") ? UInt8(ascii: "0") : UInt8(ascii: "1")]
            } else {
                path.append(byte)
            }
        }
        return depth
    }

    /// Appends `/` and an index (`-`, the end, for -1) to the path; returns where it starts.
    private mutating func pushIndex(_ index: Int) -> Int {
        let depth = path.count
        path.append(UInt8(ascii: "/"))
        path += index < 0 ? [UInt8(ascii: "-")] : Array(String(index).utf8)
        return depth
    }

    /// A member name that neither object has, as a path segment: `~0`, `~0~0`, …
    private static func unusedName(
        _ old: [UInt8], _ oldMembers: [(key: Range<Int>, value: Range<Int>)], _ new: [UInt8],
        _ newMembers: [(key: Range<Int>, value: Range<Int>)]
    ) -> [UInt8] {
        var name: [UInt8] = [UInt8(ascii: "\""), UInt8(ascii: "~"), UInt8(ascii: "\"")]
        while oldMembers.contains(where: { old[$0.key].elementsEqual(name) })
            || newMembers.contains(where: { new[$0.key].elementsEqual(name) })
        {
            name.insert(UInt8(ascii: "~"), at: 1)
        }
        return Array(repeating: [UInt8(ascii: "~"), UInt8(ascii: "0")], count: name.count - 2).flatMap { $0 }
    }

    /// How many of `0..<count` pass `same`, from 0, before the first that does not.
    private static func run(upTo count: Int, _ same: (Int) -> Bool) -> Int {
        var run = 0
        while run < count && same(run) { run += 1 }
        return run
    }

    // MARK: Reading the encoder's JSON

    private static func same(_ left: [UInt8], _ leftRange: Range<Int>, _ right: [UInt8], _ rightRange: Range<Int>)
        -> Bool
    {
        guard leftRange.count == rightRange.count else { return false }
        return left.withUnsafeBytes { leftBytes in
            right.withUnsafeBytes { rightBytes in
                ShortBytes.equal(
                    leftBytes.baseAddress! + leftRange.lowerBound, rightBytes.baseAddress! + rightRange.lowerBound,
                    count: leftRange.count)
            }
        }
    }

    /// The members of the object at `range`: each name (with its quotes) and value.
    private static func members(_ text: [UInt8], _ range: Range<Int>) -> [(key: Range<Int>, value: Range<Int>)] {
        var members: [(key: Range<Int>, value: Range<Int>)] = []
        var position = range.lowerBound + 1
        while text[position] != UInt8(ascii: "}") {
            let keyEnd = StableOrder.skipValue(text, at: position)
            let valueEnd = StableOrder.skipValue(text, at: keyEnd + 1)
            members.append((position..<keyEnd, (keyEnd + 1)..<valueEnd))
            position = text[valueEnd] == UInt8(ascii: ",") ? valueEnd + 1 : valueEnd
        }
        return members
    }

    /// The elements of the array at `range`.
    private static func elements(_ text: [UInt8], _ range: Range<Int>) -> [Range<Int>] {
        var elements: [Range<Int>] = []
        var position = range.lowerBound + 1
        while text[position] != UInt8(ascii: "]") {
            let end = StableOrder.skipValue(text, at: position)
            elements.append(position..<end)
            position = text[end] == UInt8(ascii: ",") ? end + 1 : end
        }
        return elements
    }
}
