@_spi(RewindInternals) internal import RewindSupport

/// Finding an object's member by name, for `JSONTapeKeyedContainer`.
///
/// The common case costs one comparison of a few bytes: names are compared as UTF-8 bytes with
/// the key's `stringValue`, no `String` is made per member, and the search starts just past the
/// previous match, where a synthesized `init(from:)` asks next. Objects whose names are not
/// plain (see `JSONTapeKeyedSlot.Names`) use a name table instead, so that every lookup gives
/// the same answer as `JSONObject`'s subscript: the last member with a name equal as a `String`.
extension JSONTapeState {
    /// A new slot for the object at tape index `object`, whose coding-path node is `node`.
    @inline(__always)
    mutating func newSlot(object: Int, node: Int) -> Int {
        slots.append(
            JSONTapeKeyedSlot(
                object: object, node: node, cursor: object &+ 1,
                names: tape[object].namesNeedCheck ? .unchecked : .plain))
    }

    /// The tape index of the value of the member named `key.stringValue` in `slot`'s object.
    @inline(__always)
    mutating func member<Key: CodingKey>(_ key: Key, slot: Int) -> Int? {
        var name = key.stringValue
        return name.withUTF8 { findMember($0, slot: slot) }
    }

    mutating func findMember(_ name: UnsafeBufferPointer<UInt8>, slot: Int) -> Int? {
        // The buffers in locals (nothing is appended during the search): plain loads in the loop.
        let slots = self.slots.unsafeElements
        let tape = self.tape.unsafeElements
        guard slots[slot].names == .plain else { return findMemberSlowly(name, slot: slot) }
        let object = slots[slot].object
        let first = object &+ 1
        let end = tape[object].end
        let length = name.count
        let base = self.base
        var index = slots[slot].cursor
        var remaining = tape[object].start
        while remaining > 0 {
            if index >= end { index = first }
            let entry = tape[index]
            let value = tape[index &+ 1]
            let nextName = value.isContainer ? value.end : index &+ 2
            if entry.end &- entry.start == length && JSONTapeState.bytesEqual(base + entry.start, name) {
                slots[slot].cursor = nextName
                return index &+ 1
            }
            index = nextName
            remaining &-= 1
        }
        // No name has these bytes. A key that is not ASCII may still equal a name as a Swift
        // string (canonical equivalence, such as U+212A KELVIN SIGN and "K"): ask the table.
        return JSONTapeState.isASCII(name) ? nil : findMemberByString(String(decoding: name, as: UTF8.self), slot: slot)
    }

    /// The lookup in an object whose names are not known to be plain. (Apart from
    /// `findMember`, whose loop then stays small.)
    @inline(never)
    private mutating func findMemberSlowly(_ name: UnsafeBufferPointer<UInt8>, slot: Int) -> Int? {
        if slots[slot].names == .unchecked { slots[slot].names = classifyNames(of: slots[slot].object) }
        if slots[slot].names == .plain { return findMember(name, slot: slot) }
        return findMemberByString(String(decoding: name, as: UTF8.self), slot: slot)
    }

    @inline(never)
    private mutating func findMemberByString(_ key: String, slot: Int) -> Int? {
        if let table = nameTables[slot] { return table[key] }
        let object = slots[slot].object
        var table = [String: Int](minimumCapacity: tape[object].start)
        var index = object &+ 1
        let end = tape[object].end
        while index < end {
            table[string(at: index)] = index &+ 1  // a later duplicate replaces an earlier one
            index = next(after: index &+ 1)
        }
        nameTables[slot] = table
        return table[key]
    }

    /// The keys of every member, in order, that `Key` accepts.
    mutating func allKeys<Key: CodingKey>(slot: Int, as type: Key.Type) -> [Key] {
        let object = slots[slot].object
        if tape[object].start == 1 {
            // An enum case, `{"loaded":{...}}`: the common case, from the cache when possible.
            let entry = tape[object &+ 1]
            let name = UnsafeBufferPointer(start: base + entry.start, count: entry.end &- entry.start)
            if !entry.hasEscapes {
                let position = keyArrays.position(of: Key.self, name: name)
                if position >= 0 { return keyArrays.keys(at: position, as: Key.self) }
            }
            let keys = makeKeys(slot: slot, as: Key.self)
            if !entry.hasEscapes { keyArrays.insert(keys, for: Key.self, name: name) }
            return keys
        }
        return makeKeys(slot: slot, as: Key.self)
    }

    /// `allKeys`, made anew. (Apart from `allKeys` so that the cached path has no `Key?` local,
    /// whose metadata a generic function would look up on entry.)
    @inline(never)
    private mutating func makeKeys<Key: CodingKey>(slot: Int, as type: Key.Type) -> [Key] {
        let object = slots[slot].object
        var keys: [Key] = []
        var index = object &+ 1
        let end = tape[object].end
        while index < end {
            if let key = Key(stringValue: string(at: index)) { keys.append(key) }
            index = next(after: index &+ 1)
        }
        return keys
    }

    // MARK: Classifying names

    /// `.plain` when the object's names are distinct, ASCII and unescaped; `.strings` otherwise.
    @inline(never)
    private func classifyNames(of object: Int) -> JSONTapeKeyedSlot.Names {
        let count = tape[object].start
        guard count <= 16 else { return classifyMany(object) }
        // One pass: each name's first 8 bytes as a word, then pairs compared on length and
        // word (almost always decided there) and byte by byte only when both are equal.
        return withUnsafeTemporaryAllocation(of: (start: Int, length: Int, prefix: UInt64).self, capacity: 16) { seen in
            var index = object &+ 1
            var member = 0
            while member < count {
                let entry = tape[index]
                let length = entry.end &- entry.start
                let prefix = JSONScanner.prefixWord(base, count: byteCount, at: entry.start, length: length)
                if entry.hasEscapes || prefix & 0x8080_8080_8080_8080 != 0
                    || (length > 8
                        && !JSONTapeState.isASCII(
                            UnsafeBufferPointer(start: base + (entry.start &+ 8), count: length &- 8)))
                {
                    return .strings
                }
                var other = 0
                while other < member {
                    let earlier = seen[other]
                    if earlier.length == length && earlier.prefix == prefix
                        && (length <= 8
                            || JSONTapeState.bytesEqual(
                                base + earlier.start, UnsafeBufferPointer(start: base + entry.start, count: length)))
                    {
                        return .strings
                    }
                    other &+= 1
                }
                seen.initializeElement(at: member, to: (entry.start, length, prefix))
                index = next(after: index &+ 1)
                member &+= 1
            }
            return .plain
        }
    }

    /// For large objects (dictionaries): every name checked, then hashes sorted, O(n log n).
    /// Equal hashes, duplicates or not, send the object to the name table, which is always right.
    private func classifyMany(_ object: Int) -> JSONTapeKeyedSlot.Names {
        var hashes: [UInt64] = []
        hashes.reserveCapacity(tape[object].start)
        let end = tape[object].end
        var index = object &+ 1
        while index < end {
            let entry = tape[index]
            let name = UnsafeBufferPointer(start: base + entry.start, count: entry.end &- entry.start)
            if entry.hasEscapes || !JSONTapeState.isASCII(name) { return .strings }
            hashes.append(JSONTapeState.hash(name))
            index = next(after: index &+ 1)
        }
        hashes.sort()
        for position in hashes.indices.dropFirst() where hashes[position] == hashes[position &- 1] {
            return .strings
        }
        return .plain
    }

    // MARK: Bytes

    /// Whether the `name.count` bytes at `bytes` equal `name`.
    @inline(__always)
    static func bytesEqual(_ bytes: UnsafePointer<UInt8>, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let other = name.baseAddress else { return true }  // empty: lengths already matched
        let count = name.count
        var offset = 0
        while offset &+ 8 <= count {
            let left = UnsafeRawPointer(bytes + offset).loadUnaligned(as: UInt64.self)
            let right = UnsafeRawPointer(other + offset).loadUnaligned(as: UInt64.self)
            if left != right { return false }
            offset &+= 8
        }
        while offset < count {
            if bytes[offset] != other[offset] { return false }
            offset &+= 1
        }
        return true
    }

    /// Whether the bytes are ASCII.
    @inline(__always)
    static func isASCII(_ bytes: ByteView) -> Bool {
        var offset = 0
        var bits: UInt64 = 0
        while offset &+ 8 <= bytes.count {
            bits |= bytes.loadUnaligned(at: offset, as: UInt64.self)
            offset &+= 8
        }
        var tail: UInt8 = 0
        while offset < bytes.count {
            tail |= bytes[offset]
            offset &+= 1
        }
        return bits & 0x8080_8080_8080_8080 == 0 && tail & 0x80 == 0
    }

    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.baseAddress else { return true }
        let count = bytes.count
        var offset = 0
        var bits: UInt64 = 0
        while offset &+ 8 <= count {
            bits |= UnsafeRawPointer(start + offset).loadUnaligned(as: UInt64.self)
            offset &+= 8
        }
        var tail: UInt8 = 0
        while offset < count {
            tail |= start[offset]
            offset &+= 1
        }
        return bits & 0x8080_8080_8080_8080 == 0 && tail & 0x80 == 0
    }

    /// FNV-1a, 64 bits.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
