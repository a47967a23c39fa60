/// One array or object of a `JSONText`, as its index keeps it: 24 bytes, whatever it holds.
///
/// Containers are kept in document order, so the first container inside container `i` is
/// `i + 1`, and `next` skips over everything `i` holds: a walk over a value's members or
/// elements finds each one's container without a search.
struct JSONTextContainer {
    /// The offset of the `[` or `{`.
    var start: UInt32
    /// The offset just past the `]` or `}`.
    var end: UInt32
    /// The index of the first container after this one and all it holds.
    var next: UInt32
    /// Bits 0–29: how many elements or members; bit 31: an object; bit 30: an object that
    /// repeats a name (its earlier members with that name are hidden: the last member wins).
    private var countAndFlags: UInt32
    /// The hash of the value (see `JSONTextHashing`): equal values have equal hashes.
    var hash: UInt64

    private static let objectFlag: UInt32 = 1 << 31
    private static let repeatsFlag: UInt32 = 1 << 30
    private static let countMask: UInt32 = (1 << 30) - 1

    init(start: Int, isObject: Bool) {
        self.start = UInt32(truncatingIfNeeded: start)
        end = 0
        next = 0
        countAndFlags = isObject ? JSONTextContainer.objectFlag : 0
        hash = 0
    }

    var isObject: Bool { countAndFlags & JSONTextContainer.objectFlag != 0 }

    /// Whether some name appears twice in this object.
    var repeatsNames: Bool {
        get { countAndFlags & JSONTextContainer.repeatsFlag != 0 }
        set {
            countAndFlags =
                newValue
                ? countAndFlags | JSONTextContainer.repeatsFlag : countAndFlags & ~JSONTextContainer.repeatsFlag
        }
    }

    /// The number of elements or members (of an object, the hidden ones included).
    var count: Int {
        get { Int(countAndFlags & JSONTextContainer.countMask) }
        set {
            countAndFlags =
                countAndFlags & ~JSONTextContainer.countMask | UInt32(truncatingIfNeeded: newValue)
                & JSONTextContainer.countMask
        }
    }
}
