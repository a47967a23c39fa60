/// Writing the tape (see `JSONTapeEntry`): for the fast walk of `JSONScanner+Tape`, and, as a
/// `JSONEventSink`, for the shared `scanDocument(into:)` when the fast walk gives up. Either
/// way the decoder accepts exactly what `JSONParser` accepts, and builds no `JSONValue`s.
///
/// Per value it appends one entry and counts it in its container; per container it remembers
/// the entry's index (on `openContainers`) until the container closes and its end is known.
extension JSONTapeState: JSONEventSink {
    /// Starts a tape: the reserved `null` at entry 0, and room for a document of `byteCount` bytes.
    mutating func startTape(byteCount: Int) {
        // About one entry per 6 bytes in typical states; the buffer grows when that is short.
        tape.reserve(byteCount / 6 &+ 16)
        restartTape()
    }

    /// Forgets what was written: the tape holds only the reserved `null`.
    mutating func restartTape() {
        tape.truncate(to: 0)
        openContainers.truncate(to: 0)
        tape.append(JSONTapeEntry(.null, start: 0, end: 0))
    }

    // MARK: For the fast walk, which counts the innermost container's members itself

    /// Opens a container; its parent, if any, has `parentCount` members so far, this one included.
    @inline(__always)
    mutating func openContainer(_ kind: JSONTapeEntry.Kind, parentCount: Int) {
        if openContainers.count > 0 { tape[openContainers[openContainers.count &- 1]].start = parentCount }
        openContainers.append(tape.append(JSONTapeEntry(kind, start: 0, end: 0)))
    }

    /// Closes the innermost container, which has `count` members; returns its parent's member
    /// count so far and whether the parent is an object (0 and false at the top level).
    @inline(__always)
    mutating func closeContainer(count: Int) -> (parentCount: Int, parentIsObject: Bool) {
        let index = openContainers[openContainers.count &- 1]
        openContainers.truncate(to: openContainers.count &- 1)
        tape[index].start = count
        tape[index].end = tape.count
        guard openContainers.count > 0 else { return (0, false) }
        let parent = tape[openContainers[openContainers.count &- 1]]
        return (parent.start, parent.kind == .object)
    }

    /// A string, number or literal, already counted by the caller.
    @inline(__always)
    mutating func appendLeaf(_ entry: JSONTapeEntry) {
        tape.append(entry)
    }

    /// A member name, from the fast walk, with its first 8 bytes (`prefix`, zero-padded).
    /// The object is marked for a check of its names only when a name is escaped or not ASCII,
    /// or may repeat an earlier one (same bit in `openNames`), so most objects need no check.
    @inline(__always)
    mutating func appendName(from start: Int, to end: Int, prefix: UInt64, hasEscapes: Bool, isASCII: Bool) {
        let object = openContainers[openContainers.count &- 1]
        if isASCII && !hasEscapes {
            // Two bits of 55 per name, from the two halves of one well-mixed hash.
            var hash = (prefix ^ UInt64(truncatingIfNeeded: end &- start)) &* 0x9E37_79B9_7F4A_7C15
            hash = (hash ^ hash &>> 29) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash &>> 32
            let bits: UInt64 = 1 &<< (((hash &>> 32) &* 55) &>> 32) | 1 &<< (((hash & 0xFFFF_FFFF) &* 55) &>> 32)
            if tape[object].openNames & bits == bits { tape[object].namesNeedCheck = true }
            tape[object].openNames |= bits
        } else {
            tape[object].namesNeedCheck = true
        }
        tape.append(JSONTapeEntry(.name, start: start, end: end, hasEscapes: hasEscapes))
    }

    // MARK: JSONEventSink, for the shared walk

    /// A value starts: it is one more element or member of the open container, if any.
    @inline(__always)
    private mutating func countInParent() {
        if openContainers.count > 0 {
            tape[openContainers[openContainers.count &- 1]].start &+= 1
        }
    }

    @inline(__always)
    private mutating func beginContainer(_ kind: JSONTapeEntry.Kind) {
        countInParent()
        openContainers.append(tape.append(JSONTapeEntry(kind, start: 0, end: 0)))
    }

    @inline(__always)
    private mutating func endContainer() {
        let index = openContainers[openContainers.count &- 1]
        openContainers.truncate(to: openContainers.count &- 1)
        tape[index].end = tape.count
    }

    @inline(__always) mutating func beginArray(at offset: Int) { beginContainer(.array) }
    @inline(__always) mutating func endArray(at offset: Int) { endContainer() }
    @inline(__always) mutating func beginObject(at offset: Int) { beginContainer(.object) }
    @inline(__always) mutating func endObject(at offset: Int) { endContainer() }

    /// A member name, from the shared walk: its object's names will be checked when decoded.
    @inline(__always)
    mutating func key(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, hasEscapes: Bool) {
        tape[openContainers[openContainers.count &- 1]].namesNeedCheck = true
        tape.append(JSONTapeEntry(.name, start: start, end: end, hasEscapes: hasEscapes))
    }

    @inline(__always)
    mutating func string(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, hasEscapes: Bool) {
        countInParent()
        tape.append(JSONTapeEntry(.string, start: start, end: end, hasEscapes: hasEscapes))
    }

    @inline(__always)
    mutating func number(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) {
        countInParent()
        tape.append(JSONTapeEntry(.number, start: start, end: end))
    }

    @inline(__always)
    mutating func literal(_ value: JSONValue, at offset: Int) {
        countInParent()
        let kind: JSONTapeEntry.Kind =
            switch value {
            case .bool(true): .true
            case .bool(false): .false
            default: .null
            }
        tape.append(JSONTapeEntry(kind, start: 0, end: 0))
    }
}
