/// One array or object of a `JSONText`, as its index keeps it: 16 bytes, whatever it holds.
///
/// Containers are kept in document order, so the first container inside container `i` is
/// `i + 1`, and `next` skips over everything `i` holds: a walk over a value's members or
/// elements finds each one's container without a search. Its start is where the walk found it,
/// and whether it is an object its first byte.
struct JSONTextContainer {
    /// The offset just past the `]` or `}`.
    var end: UInt32
    /// Bits 0–30: the index of the first container after this one and all it holds; bit 31: an
    /// object that repeats a name (its earlier members with that name are hidden: the last
    /// member wins).
    private var nextAndFlag: UInt32
    /// The hash of the value (see `JSONTextHashing`): equal values have equal hashes.
    var hash: UInt64

    private static let repeatsFlag: UInt32 = 1 << 31

    init() {
        end = 0
        nextAndFlag = 0
        hash = 0
    }

    /// The index of the first container after this one and all it holds.
    var next: Int {
        get { Int(nextAndFlag & ~JSONTextContainer.repeatsFlag) }
        set { nextAndFlag = nextAndFlag & JSONTextContainer.repeatsFlag | UInt32(truncatingIfNeeded: newValue) }
    }

    /// Whether some name appears twice in this object.
    var repeatsNames: Bool {
        get { nextAndFlag & JSONTextContainer.repeatsFlag != 0 }
        set {
            nextAndFlag =
                newValue ? nextAndFlag | JSONTextContainer.repeatsFlag : nextAndFlag & ~JSONTextContainer.repeatsFlag
        }
    }
}
