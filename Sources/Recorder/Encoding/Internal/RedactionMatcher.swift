/// A `Redaction`, prepared for the encoder: whether a key's value is written as `"<redacted>"`,
/// decided for most keys from their bytes alone, with no allocation.
///
/// Keys compare without regard to case, as `Redaction` promises: both sides lowercased. A rule
/// that is ASCII once lowercased is kept as bytes; an ASCII key (almost every key: property names,
/// enum cases) is then compared byte by byte, ASCII letters folded on the fly. A key or a rule
/// that is not ASCII goes the slow way, through `String.lowercased()` and `String`'s own
/// comparison, which also treats canonically equivalent spellings as equal (`"caf\u{E9}"` and
/// `"cafe\u{301}"`; the Kelvin sign `"\u{212A}"` and `"K"`).
struct RedactionMatcher {
    /// Whether any rule exists; kept apart so the common case reads nothing else.
    let isActive: Bool
    /// Exact names, lowercased ASCII bytes.
    private let names: [[UInt8]]
    /// Fragments a key may contain, lowercased ASCII bytes.
    private let fragments: [[UInt8]]
    /// Rules that are not ASCII once lowercased: exact names and fragments, lowercased.
    private let otherNames: [String]
    private let otherFragments: [String]
    private let hasOtherRules: Bool
    /// Bit n is set when an exact ASCII name has n bytes (bit 63: 63 or more).
    private let nameLengths: UInt64
    /// The length of the shortest ASCII fragment (`Int.max` without one).
    private let shortestFragment: Int

    init(_ redaction: Redaction) {
        var names: [[UInt8]] = []
        var fragments: [[UInt8]] = []
        var otherNames: [String] = []
        var otherFragments: [String] = []
        for rule in redaction.rules {
            let lowered = rule.text.lowercased()
            let isASCII = !lowered.utf8.contains { $0 >= 0x80 }
            switch (rule.kind, isASCII) {
            case (.key, true): names.append(Array(lowered.utf8))
            case (.keyContaining, true): fragments.append(Array(lowered.utf8))
            case (.key, false): otherNames.append(lowered)
            case (.keyContaining, false): otherFragments.append(lowered)
            }
        }
        self.names = names
        self.fragments = fragments
        self.otherNames = otherNames
        self.otherFragments = otherFragments
        hasOtherRules = !otherNames.isEmpty || !otherFragments.isEmpty
        nameLengths = names.reduce(0) { $0 | 1 &<< UInt64(Swift.min($1.count, 63)) }
        shortestFragment = fragments.map(\.count).min() ?? .max
        isActive = !redaction.rules.isEmpty
    }

    /// Whether `key`'s value is redacted. Call only when `isActive`.
    @inline(__always)
    func covers(_ key: String) -> Bool {
        let verdict: Bool? = key.utf8.withContiguousStorageIfAvailable { bytes in
            if bytes.contains(where: { $0 >= 0x80 }) { return coversSlowly(key) }
            return coversASCII(UnsafeRawBufferPointer(bytes))
        }
        return verdict ?? coversSlowly(key)
    }

    private func coversASCII(_ key: UnsafeRawBufferPointer) -> Bool {
        let count = key.count
        if nameLengths & (1 &<< UInt64(Swift.min(count, 63))) != 0 {
            for name in names where name.count == count && Self.equalFolding(key, 0, name) { return true }
        }
        if count >= shortestFragment {
            for fragment in fragments where fragment.count <= count {
                for start in 0...(count - fragment.count) where Self.equalFolding(key, start, fragment) {
                    return true
                }
            }
        }
        // A rule that is not ASCII may still be canonically equivalent to an ASCII key (U+037E,
        // the Greek question mark, is `;`): such rules are rare, and go the slow way.
        return hasOtherRules && coversSlowly(String(decoding: key, as: UTF8.self))
    }

    /// Whether `key[start...]` begins with `lowered`, ASCII letters of `key` folded to lowercase.
    @inline(__always)
    private static func equalFolding(_ key: UnsafeRawBufferPointer, _ start: Int, _ lowered: [UInt8]) -> Bool {
        for (offset, expected) in lowered.enumerated() {
            var byte = key[start &+ offset]
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte |= 0x20 }
            if byte != expected { return false }
        }
        return true
    }

    @inline(never)
    private func coversSlowly(_ key: String) -> Bool {
        let lowered = key.lowercased()
        if names.contains(where: { String(decoding: $0, as: UTF8.self) == lowered }) { return true }
        if otherNames.contains(lowered) { return true }
        let allFragments = fragments.map { String(decoding: $0, as: UTF8.self) } + otherFragments
        return allFragments.contains { fragment in fragment.isEmpty || lowered.contains(fragment) }
    }
}
