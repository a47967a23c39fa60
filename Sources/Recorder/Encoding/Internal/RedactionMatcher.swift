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
    /// Whether any rule exists; the encoder checks this inline and calls `covers` only then.
    let isActive: Bool
    /// Each rule, lowercased, as bytes when ASCII.
    private let rules: [(bytes: [UInt8], isPart: Bool)]
    /// Whether some rule is not ASCII once lowercased.
    private let hasOtherRules: Bool
    /// The rules lowercased, for the slow way.
    private let lowered: [(text: String, isPart: Bool)]
    /// The answers given so far, when something can be redacted (`RedactionCache`).
    private let cache: RedactionCache?

    init(_ redaction: Redaction) {
        lowered = redaction.rulesInForce.map { ($0.text.lowercased(), $0.isPart) }
        rules = lowered.map { (Array($0.text.utf8), $0.isPart) }
        hasOtherRules = rules.contains { $0.bytes.contains { $0 >= 0x80 } }
        isActive = !lowered.isEmpty
        cache = isActive ? RedactionCache() : nil
    }

    /// Whether `key`'s value is redacted. Call only when `isActive`. Not inlined: the encoder's
    /// containers call it at every key, and only when something can be redacted.
    @inline(never)
    func covers(_ key: String) -> Bool {
        var utf8 = key
        return utf8.withUTF8 { bytes in
            guard let cache else { return decide(key, bytes) }
            return cache.covers(bytes) { decide(key, bytes) }
        }
    }

    /// Whether `key`, whose UTF-8 is `bytes`, is covered, from the rules.
    private func decide(_ key: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if hasOtherRules || bytes.contains(where: { $0 >= 0x80 }) { return coversSlowly(key) }
        for rule in rules {
            let last = rule.isPart ? bytes.count - rule.bytes.count : 0
            guard rule.isPart ? last >= 0 : rule.bytes.count == bytes.count else { continue }
            var start = 0
            while start <= last {
                if Self.equalFolding(bytes, start, rule.bytes) { return true }
                start += 1
            }
        }
        return false
    }

    /// Whether `key[start...]` begins with `lowered`, ASCII letters of `key` folded to lowercase.
    private static func equalFolding(_ key: UnsafeBufferPointer<UInt8>, _ start: Int, _ lowered: [UInt8]) -> Bool {
        var offset = 0
        while offset < lowered.count {
            var byte = key[start &+ offset]
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte |= 0x20 }
            if byte != lowered[offset] { return false }
            offset += 1
        }
        return true
    }

    private func coversSlowly(_ key: String) -> Bool {
        let key = key.lowercased()
        return lowered.contains { rule in rule.isPart ? rule.text.isEmpty || key.contains(rule.text) : key == rule.text
        }
    }
}
