@_spi(RewindInternals) internal import RewindSupport
import TraceReader

/// The names part of the headings (`ValueChangeText.appendNames`) that a `ScalarChangeWriter`
/// wrote, kept to be written again for the next events of the same type, store, action and
/// source: most events of a store have one of a few actions and sources, and copying their
/// names' bytes costs less than writing them piece by piece. It keeps the first
/// `HeadingNames.capacity` kinds of event met; others are written each time. One per part, used
/// on one thread.
struct HeadingNames {
    /// How many kinds of event are kept.
    static let capacity = 16

    /// What the names depend on: the bytes (inside the quotes) of the event's type, store,
    /// action and source, and whether it has a cause.
    struct Key {
        let type: Range<Int>
        let store: Range<Int>?
        let action: Range<Int>?
        let source: Range<Int>?
        let hasCause: Bool

        init(type: EventFields.Text, fields: EventFields) {
            self.type = type.range
            store = fields.store?.range
            action = fields.action?.range
            source = fields.source?.range
            hasCause = fields.cause != nil
        }
    }

    private struct Entry {
        let type: [UInt8]
        let store: [UInt8]?
        let action: [UInt8]?
        let source: [UInt8]?
        let hasCause: Bool
        /// The names as written.
        let text: [UInt8]
    }

    private var entries: [Entry] = []
    /// The names of an event not kept (when `capacity` kinds are), written the last time.
    private var unkept: [UInt8] = []

    /// The entry whose names are those of the event `key` reads in `line`, if one is kept.
    func entry(for key: Key, in line: ByteView) -> Int? {
        entries.firstIndex { entry in
            entry.hasCause == key.hasCause && Self.same(entry.type, key.type, line)
                && Self.same(entry.store, key.store, line) && Self.same(entry.action, key.action, line)
                && Self.same(entry.source, key.source, line)
        }
    }

    /// Keeps the names `write` writes for the event `key` reads in `line`, and returns their
    /// entry (-1 for the names written but not kept, when `capacity` kinds are kept already).
    mutating func add(_ key: Key, in line: ByteView, _ write: (inout [UInt8]) -> Void) -> Int {
        var text: [UInt8] = []
        write(&text)
        guard entries.count < Self.capacity else {
            unkept = text
            return -1
        }
        func bytes(_ range: Range<Int>?) -> [UInt8]? {
            range.map { line[$0].array }
        }
        entries.append(
            Entry(
                type: bytes(key.type)!, store: bytes(key.store), action: bytes(key.action),
                source: bytes(key.source), hasCause: key.hasCause, text: text))
        return entries.count - 1
    }

    /// Appends the names of `entry` (as `entry(for:in:)` or `add` gave it).
    func append(_ entry: Int, to output: inout [UInt8]) {
        if entry < 0 {
            output.append(contentsOf: unkept)
        } else {
            output.append(contentsOf: entries[entry].text)
        }
    }

    /// Whether `kept` holds the bytes of `range` of `line` (both nil: no such field).
    private static func same(_ kept: [UInt8]?, _ range: Range<Int>?, _ line: ByteView) -> Bool {
        guard let kept, let range else { return kept == nil && range == nil }
        return kept.count == range.count
            && ByteView.withBytes(of: kept) { $0.elementsEqual(line[range]) }
    }
}
