/// One entry of the tape: the flat form of a JSON document that `JSONTapeDecoder` reads.
///
/// The tape holds one entry per value and one per member name, in document order, so that an
/// object's members are its name entries, each followed by its value. A container's entry
/// records how many elements or members it has and the index just past its last descendant,
/// so skipping a value of any size is one step. Leaves record where their text is in the input;
/// nothing is copied or converted until a `Decodable` type asks for it.
///
/// Entry 0 of every tape is a `null` that is not in the document: the value of a
/// `superDecoder(forKey:)` whose member is missing. The document starts at entry 1.
struct JSONTapeEntry {
    /// What an entry holds. (A struct of static values rather than an enum: reading it back
    /// from the packed word is then a shift, with no failable `init(rawValue:)` to call.)
    package struct Kind: Equatable {
        let rawValue: UInt8

        static let null = Kind(rawValue: 0)
        static let `false` = Kind(rawValue: 1)
        static let `true` = Kind(rawValue: 2)
        static let number = Kind(rawValue: 3)
        static let string = Kind(rawValue: 4)
        static let array = Kind(rawValue: 5)
        static let object = Kind(rawValue: 6)
        /// An object member's name.
        static let name = Kind(rawValue: 7)
    }

    /// Leaves: the offset of the first byte of the text (of a string or name: after the quote).
    /// Arrays and objects: the number of elements or members (while the builder has them
    /// open, their parent's count so far, kept there until they close).
    var start: Int
    /// The kind in the top byte; then one flag bit (`hasEscapes` for strings and names,
    /// `namesNeedCheck` for objects); in the low 55 bits the end offset of the text (leaves) or
    /// the index of the next entry after the container.
    private var packed: UInt64

    private static let escapeFlag: UInt64 = 1 << 55
    private static let endMask: UInt64 = (1 << 55) - 1

    @inline(__always)
    init(_ kind: Kind, start: Int, end: Int, hasEscapes: Bool = false) {
        self.start = start
        packed =
            UInt64(kind.rawValue) << 56 | (hasEscapes ? JSONTapeEntry.escapeFlag : 0)
            | UInt64(truncatingIfNeeded: end) & JSONTapeEntry.endMask
    }

    @inline(__always)
    var kind: Kind { Kind(rawValue: UInt8(truncatingIfNeeded: packed >> 56)) }

    /// Strings and names: whether the text holds a backslash escape.
    @inline(__always)
    var hasEscapes: Bool { packed & JSONTapeEntry.escapeFlag != 0 }

    /// Objects: whether the names must be looked at before they can be compared byte for byte
    /// (see `JSONTapeKeyedSlot.Names`): some name may repeat, or is escaped or not ASCII. Set
    /// by the builder (while a container is open, its parent's flag); the same bit as
    /// `hasEscapes`.
    @inline(__always)
    var namesNeedCheck: Bool {
        get { packed & JSONTapeEntry.escapeFlag != 0 }
        set { packed = newValue ? packed | JSONTapeEntry.escapeFlag : packed & ~JSONTapeEntry.escapeFlag }
    }

    /// Containers, while the builder has them open: their parent's 55-bit Bloom filter of the
    /// names seen so far (in the bits that later hold `end`), two bits per name, kept there
    /// until they close (see `JSONTapeState+Building`). A name whose bits are all set already
    /// may repeat an earlier one.
    @inline(__always)
    var openNames: UInt64 {
        get { packed & JSONTapeEntry.endMask }
        set { packed = packed & ~JSONTapeEntry.endMask | newValue & JSONTapeEntry.endMask }
    }

    /// Leaves: the offset just past the text. Containers: the index of the entry after the
    /// container and all its descendants.
    @inline(__always)
    var end: Int {
        get { Int(truncatingIfNeeded: packed & JSONTapeEntry.endMask) }
        set { packed = packed & ~JSONTapeEntry.endMask | UInt64(truncatingIfNeeded: newValue) & JSONTapeEntry.endMask }
    }

    @inline(__always)
    var isContainer: Bool {
        let kind = self.kind
        return kind == .array || kind == .object
    }

    /// The JSON name of the value's type, as `JSONValue.kindName` gives it.
    var kindName: String {
        switch kind {
        case .false, .true: "boolean"
        case .number: "number"
        case .string, .name: "string"
        case .array: "array"
        case .object: "object"
        default: "null"
        }
    }
}

extension JSONBuffer<JSONTapeEntry> {
    /// The index of the entry after the value at `index` and all its descendants.
    @inline(__always)
    func next(after index: Int) -> Int {
        let entry = self[index]
        return entry.isContainer ? entry.end : index &+ 1
    }
}
