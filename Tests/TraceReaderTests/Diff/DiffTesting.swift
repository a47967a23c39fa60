import TestSupport

@testable import TraceJSON

/// Helpers for the diff tests, in a namespace so that they cannot clash with other tests.
enum DiffTesting {
    /// Parses JSON text written in a test.
    static func json(_ text: String) throws -> JSONValue {
        try JSONParser.parse(text)
    }

    /// The diff's hashes of the elements of an array (see `Differ.hashes`).
    static func hashes(_ values: [JSONValue]) -> [UInt64] {
        JSONText(.array(values)).withReader { reader, root in
            var differ = Differ(old: reader, new: reader)
            return differ.hashes(reader.elements(of: root)[...], in: reader)
        }
    }

    /// How `HunkPairing` pairs a stretch of removed elements `old` with inserted ones `new`.
    static func pairing(_ old: [JSONValue], _ new: [JSONValue]) -> [HunkPairing.Step] {
        func fingerprints(_ values: [JSONValue]) -> [HunkPairing.Fingerprint] {
            JSONText(.array(values)).withReader { reader, root in
                var scratch = JSONTextReader.Scratch()
                return reader.elements(of: root).map { HunkPairing.Fingerprint($0, in: reader, &scratch) }
            }
        }
        return HunkPairing.pair(fingerprints(old), fingerprints(new))
    }

    /// Applies `changes` to `before` by hand, following what `StateChange` documents: in
    /// document order, a removed element's index counted in the old array, every other index
    /// in the new one. This is the check that a change list says everything and says it right.
    static func applying(_ changes: [StateChange], to before: JSONValue) -> JSONValue? {
        var patch: [JSONValue] = []
        // Per array (by its path), the elements added and removed so far: an old index then
        // sits at old + added − removed in the array being rebuilt.
        var added: [StatePath: Int] = [:]
        var removed: [StatePath: Int] = [:]
        for change in changes {
            var components = change.path.components
            let last = components.popLast()
            let parent = StatePath(components)
            var pointer = change.path.jsonPointer
            if case .index(let index)? = last {
                switch change {
                case .removed:
                    pointer =
                        parent.appending(.index(index + added[parent, default: 0] - removed[parent, default: 0]))
                        .jsonPointer
                    removed[parent, default: 0] += 1
                case .added:
                    added[parent, default: 0] += 1
                case .changed:
                    break
                }
            }
            switch change {
            case .removed:
                patch.append(.object(["op": .string("remove"), "path": .string(pointer)]))
            case .added(_, let value):
                patch.append(.object(["op": .string("add"), "path": .string(pointer), "value": value]))
            case .changed(_, _, let value):
                patch.append(.object(["op": .string("replace"), "path": .string(pointer), "value": value]))
            }
        }
        return try? JSONPatch.apply(.array(patch), to: before)
    }
}

/// The random choices the diff tests make, on the tests' seeded generator.
extension SeededGenerator {
    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int.random(in: 0..<choices.count, using: &self)]
    }
}

/// Random states and random edits of them, with the awkward cases mixed in: member names with
/// `/`, `~`, spaces, digits and Unicode; strings with controls, quotes, emoji and both Unicode
/// normal forms of `é`; numbers such as `1e400`, `-0` and integers past 64 bits.
struct DiffStateGenerator {
    var random: SeededGenerator

    static let names = [
        "a", "b", "id", "title", "_0", "loaded", "with space", "a/b", "m~n", "~1", "", "日本", "1234", "é", "e\u{301}",
        "x.y", "[0]",
    ]
    static let strings = [
        "", "plain", "caf\u{E9}", "cafe\u{301}", "日本語", "👩‍👩‍👧 family", "quote \" and \\", "bell \u{7}", "esc \u{1B}[2J",
        "nul \u{0}", "tab\tnew\nline", "\u{2028}sep", "del \u{7F} c1 \u{85}", "/~0~1",
    ]
    static let numbers = [
        "0", "-0", "1", "1.0", "10e-1", "1e400", "-1e400", "1E+2", "100", "12345678901234567890123",
        "12345678901234567890124", "0.1", "3.14159", "-2.5e-10", "1e-400", "42",
    ]

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    mutating func value(depth: Int) -> JSONValue {
        // Mostly containers near the top, as in app states; only scalars at the bottom.
        let kind =
            depth <= 0
            ? Int.random(in: 0..<4, using: &random)
            : random.chance(depth >= 2 ? 0.75 : 0.4)
                ? Int.random(in: 4..<6, using: &random) : Int.random(in: 0..<4, using: &random)
        switch kind {
        case 0: return random.chance(0.5) ? .null : .bool(random.chance(0.5))
        case 1, 2: return .number(random.pick(Self.numbers))
        case 3: return .string(random.pick(Self.strings))
        case 4:
            let count =
                random.chance(0.1) ? Int.random(in: 10..<40, using: &random) : Int.random(in: 0..<6, using: &random)
            return .array((0..<count).map { _ in value(depth: depth - 1) })
        default:
            var object = JSONObject()
            for _ in 0..<Int.random(in: 0..<6, using: &random) {
                object.set(value(depth: depth - 1), forKey: random.pick(Self.names))
            }
            return .object(object)
        }
    }

    /// An edited copy of `value`: a few insertions, removals, replacements and reorderings,
    /// sometimes none.
    mutating func edit(_ value: JSONValue, depth: Int) -> JSONValue {
        if random.chance(0.06) { return self.value(depth: max(0, depth - 1)) }
        switch value {
        case .array(var elements):
            for _ in 0..<Int.random(in: depth >= 4 ? 1...3 : 0...3, using: &random) {
                switch Int.random(in: 0..<5, using: &random) {
                case 0:
                    elements.insert(
                        self.value(depth: depth - 1), at: Int.random(in: 0...elements.count, using: &random))
                case 1 where !elements.isEmpty:
                    elements.remove(at: Int.random(in: 0..<elements.count, using: &random))
                case 2 where !elements.isEmpty, 3 where !elements.isEmpty:
                    let index = Int.random(in: 0..<elements.count, using: &random)
                    elements[index] = edit(elements[index], depth: depth - 1)
                default:
                    break
                }
            }
            return .array(elements)
        case .object(let object):
            var members = Array(object)
            if random.chance(0.3) { members.shuffle(using: &random) }
            var edited = JSONObject(members)
            for _ in 0..<Int.random(in: depth >= 4 ? 1...3 : 0...3, using: &random) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    edited.set(self.value(depth: depth - 1), forKey: random.pick(Self.names))
                case 1 where !edited.isEmpty:
                    edited.set(nil, forKey: edited.keys[Int.random(in: 0..<edited.count, using: &random)])
                case 2 where !edited.isEmpty, 3 where !edited.isEmpty:
                    let key = edited.keys[Int.random(in: 0..<edited.count, using: &random)]
                    if let member = edited[key] { edited.set(edit(member, depth: depth - 1), forKey: key) }
                default:
                    break
                }
            }
            return .object(edited)
        case .number:
            return random.chance(0.5) ? .number(random.pick(Self.numbers)) : value
        case .string:
            return random.chance(0.5) ? .string(random.pick(Self.strings)) : value
        default:
            return random.chance(0.3) ? self.value(depth: 0) : value
        }
    }

    /// An app state (store name → state) and an edited copy; sometimes a bare value instead.
    mutating func pair() -> (before: JSONValue, after: JSONValue) {
        let before: JSONValue
        if random.chance(0.1) {
            before = value(depth: 3)
        } else {
            var stores = JSONObject()
            for store in ["CatalogStore", "CartStore", "UserStore", "Settings"] where random.chance(0.7) {
                stores.set(value(depth: 4), forKey: store)
            }
            before = .object(stores)
        }
        return (before, edit(before, depth: 5))
    }
}
