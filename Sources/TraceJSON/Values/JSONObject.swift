/// A JSON object: its members in the order they were written, duplicates included.
///
/// When a name appears twice, **the last member wins**, everywhere: looking the name up gives the
/// value of its last member, as most JSON readers do; `JSONPrinter` (and so `inspector show`)
/// prints only that member, where it stands; the diff, JSON Patch, equivalence and
/// `JSONValueDecoder` see only its value. Every member stays in the collection as written, for
/// code that wants them all. For printing, the diff and JSON Patch, two names are the same when
/// their UTF-8 bytes are, as for every JSON tool; lookup compares them as Swift strings do
/// (canonical equivalence), so `"é"` also finds a member named `"e\u{301}"`. Lookup is a short
/// linear search up to 16 members; a larger object keeps an index from name to position, so
/// lookup stays fast in objects with thousands of members.
///
/// Two objects are `==` when they have the same members in the same order. Use
/// `JSONValue.isEquivalent(to:)` to ignore the order.
public struct JSONObject: Hashable, Sendable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// A member: its name and its value.
    public typealias Element = (key: String, value: JSONValue)
    /// Positions are offsets, from 0.
    public typealias Index = Int
    /// The positions of the members.
    public typealias Indices = Range<Int>

    /// Objects with more members than this keep an index.
    static let indexThreshold = 16

    /// The member names, in order, duplicates included.
    public private(set) var keys: [String]
    /// The member values, in the order of `keys`.
    private var values: [JSONValue]
    /// The member values, in the order of `keys` (shared, not copied): for walks that need no names.
    var memberValues: [JSONValue] { values }
    /// Name → position of its last member; kept when there are more than `indexThreshold` members.
    private var index: [String: Int]?

    /// An object with no members.
    public init() {
        keys = []
        values = []
        index = nil
    }

    /// An object with these members, in this order; duplicate names are kept.
    public init(_ members: [(key: String, value: JSONValue)]) {
        self.init(uncheckedKeys: members.map(\.key), values: members.map(\.value))
    }

    /// An object with these members, in this order: `["name": .string("a"), "n": .number("1")]`.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(uncheckedKeys: elements.map(\.0), values: elements.map(\.1))
    }

    /// An object from parallel arrays of the same length.
    init(uncheckedKeys keys: [String], values: [JSONValue]) {
        self.keys = keys
        self.values = values
        index = keys.count > JSONObject.indexThreshold ? JSONObject.makeIndex(keys) : nil
    }

    private static func makeIndex(_ keys: [String]) -> [String: Int] {
        var index = [String: Int](minimumCapacity: keys.count)
        for (position, key) in keys.enumerated() {
            index[key] = position
        }
        return index
    }

    /// The position of the last member named `key`.
    @inline(__always)
    func lastPosition(of key: String) -> Int? {
        if let index { return index[key] }
        var position = keys.count
        while position > 0 {
            position &-= 1
            if keys[position] == key { return position }
        }
        return nil
    }

    /// Whether some name may appear twice (false is sure; true when names compare equal as
    /// Swift strings, which exact bytes may not): printing and the diff then look closer.
    var mayRepeatNames: Bool {
        if let index { return index.count < keys.count }
        var position = 1
        while position < keys.count {
            let key = keys[position]
            var earlier = 0
            while earlier < position {
                if keys[earlier].utf8.count == key.utf8.count && keys[earlier] == key { return true }
                earlier &+= 1
            }
            position &+= 1
        }
        return false
    }

    /// The value of the last member named `key`, or nil when there is none.
    public subscript(key: String) -> JSONValue? {
        guard let position = lastPosition(of: key) else { return nil }
        return values[position]
    }

    /// Adds a member at the end, even when a member already has this name.
    public mutating func append(key: String, value: JSONValue) {
        keys.append(key)
        values.append(value)
        if index != nil {
            index![key] = keys.count - 1
        } else if keys.count > JSONObject.indexThreshold {
            index = JSONObject.makeIndex(keys)
        }
    }

    /// Sets the value named `key`: replaces the value of the last member with that name where it
    /// stands, or appends a member when there is none. Setting nil removes every member with
    /// that name. Afterwards `self[key] == value`.
    public mutating func set(_ value: JSONValue?, forKey key: String) {
        if let value {
            if let position = lastPosition(of: key) {
                values[position] = value
            } else {
                append(key: key, value: value)
            }
            return
        }
        guard lastPosition(of: key) != nil else { return }
        var keptKeys: [String] = []
        var keptValues: [JSONValue] = []
        keptKeys.reserveCapacity(keys.count - 1)
        keptValues.reserveCapacity(keys.count - 1)
        for position in keys.indices where keys[position] != key {
            keptKeys.append(keys[position])
            keptValues.append(values[position])
        }
        self = JSONObject(uncheckedKeys: keptKeys, values: keptValues)
    }

    // MARK: Collection

    /// 0.
    public var startIndex: Int { 0 }
    /// The number of members.
    public var endIndex: Int { keys.count }

    /// The member at `position`.
    public subscript(position: Int) -> (key: String, value: JSONValue) {
        (keys[position], values[position])
    }

    // MARK: Hashable (the index is a cache and does not count)

    /// Same members in the same order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.keys == rhs.keys && lhs.values == rhs.values
    }

    /// Hashes the members in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(keys)
        hasher.combine(values)
    }
}
