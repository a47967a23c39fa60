@_spi(RewindInternals) internal import RewindSupport

/// Writing the tape (see `JSONTapeEntry`): the tape decoder's `JSONEventSink`, fed by the
/// shared walk (`JSONScanner.scanDocument(into:)`), so the decoder accepts exactly what
/// `JSONParser` accepts, with the same errors, and builds no `JSONValue`s.
///
/// Per value it appends one entry. What it knows of the innermost open container (its member
/// count, the Bloom filter of its names, whether its names need a check) is kept in fields of
/// the state, not in the container's entry, so a value costs an increment of one field. When a
/// container opens, its parent's fields are saved in the new entry (`start`, `openNames`,
/// `namesNeedCheck`), which is where nothing else is written until it closes; when it closes,
/// its own count and check go in its entry, with its end, and the parent's fields come back.
extension JSONTapeState: JSONEventSink {
    /// Starts a tape for a document of `byteCount` bytes: the reserved `null` at entry 0, and
    /// room for the rest.
    mutating func startTape(byteCount: Int) {
        self.byteCount = byteCount
        // About one entry per 6 bytes in typical states; the buffer grows when that is short.
        tape.reserve(byteCount / 6 &+ 16)
        tape.truncate(to: 0)
        openContainers.truncate(to: 0)
        members = 0
        names = 0
        namesNeedCheck = false
        tape.append(JSONTapeEntry(.null, start: 0, end: 0))
    }

    @inline(__always)
    private mutating func beginContainer(_ kind: JSONTapeEntry.Kind) {
        // The parent's fields, its count including this container, until this one closes.
        var entry = JSONTapeEntry(kind, start: members &+ 1, end: 0)
        entry.openNames = names
        entry.namesNeedCheck = namesNeedCheck
        openContainers.append(tape.append(entry))
        members = 0
        names = 0
        namesNeedCheck = false
    }

    @inline(__always)
    private mutating func endContainer() {
        let index = openContainers[openContainers.count &- 1]
        openContainers.truncate(to: openContainers.count &- 1)
        let saved = tape[index]
        var entry = JSONTapeEntry(saved.kind, start: members, end: tape.count)
        entry.namesNeedCheck = namesNeedCheck
        tape[index] = entry
        members = saved.start
        names = saved.openNames
        namesNeedCheck = saved.namesNeedCheck
    }

    @inline(__always) mutating func beginArray(at offset: Int) { beginContainer(.array) }
    @inline(__always) mutating func endArray(at offset: Int) { endContainer() }
    @inline(__always) mutating func beginObject(at offset: Int) { beginContainer(.object) }
    @inline(__always) mutating func endObject(at offset: Int) { endContainer() }

    /// A member name. The object is marked for a check of its names only when a name is escaped
    /// or not ASCII, or may repeat an earlier one (its two bits already set in `names`), so
    /// most objects need no check.
    @inline(__always)
    mutating func key(_ bytes: ByteView, from start: Int, to end: Int, hasEscapes: Bool) {
        tape.append(JSONTapeEntry(.name, start: start, end: end, hasEscapes: hasEscapes))
        if namesNeedCheck { return }
        let length = end &- start
        // The first 8 bytes, in one load; a longer name's other bytes are read again (they were
        // just scanned, so they are in the cache), to see that they are ASCII.
        let prefix = JSONScanner.prefixWord(bytes, at: start, length: length)
        if hasEscapes || prefix & 0x8080_8080_8080_8080 != 0
            || (length > 8
                && !JSONTapeState.isASCII(bytes[(start &+ 8)..<end]))
        {
            namesNeedCheck = true
            return
        }
        // Two bits of 55 per name, from the two halves of one well-mixed hash.
        var hash = (prefix ^ UInt64(truncatingIfNeeded: length)) &* 0x9E37_79B9_7F4A_7C15
        hash = (hash ^ hash &>> 29) &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash &>> 32
        let bits: UInt64 = 1 &<< (((hash &>> 32) &* 55) &>> 32) | 1 &<< (((hash & 0xFFFF_FFFF) &* 55) &>> 32)
        if names & bits == bits { namesNeedCheck = true }
        names |= bits
    }

    @inline(__always)
    mutating func string(_ bytes: ByteView, from start: Int, to end: Int, hasEscapes: Bool) {
        members &+= 1
        tape.append(JSONTapeEntry(.string, start: start, end: end, hasEscapes: hasEscapes))
    }

    @inline(__always)
    mutating func number(_ bytes: ByteView, from start: Int, to end: Int) {
        members &+= 1
        tape.append(JSONTapeEntry(.number, start: start, end: end))
    }

    @inline(__always)
    mutating func literal(_ value: JSONValue, at offset: Int) {
        members &+= 1
        let kind: JSONTapeEntry.Kind =
            switch value {
            case .bool(true): .true
            case .bool(false): .false
            default: .null
            }
        tape.append(JSONTapeEntry(kind, start: 0, end: 0))
    }
}
