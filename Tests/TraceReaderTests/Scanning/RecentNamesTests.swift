@_spi(RewindInternals) import RewindSupport
import TestSupport
import Testing

@testable import TraceReader

/// `RecentNames` remembers the ids of the last names looked up: a name must find its own id and
/// never another name's, whatever the lengths, the bytes they share and the order they come in.
@Suite struct RecentNamesTests {
    /// Names that differ in one byte anywhere (first, middle, last), of every length from 0 to
    /// 20 (the longest not kept), and more of them in turn than are remembered.
    private static let names: [String] = {
        var names = ["", "a", "b", "ab", "ba", "abc", "acc", "abd", "Cart", "Card", "CartStore", "CatalogStore"]
        for length in 4...20 {
            let base = String((0..<length).map { Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
            names.append(base)
            for position in [0, length / 2, length - 1] {
                var bytes = Array(base.utf8)
                bytes[position] = UInt8(ascii: "Z")
                names.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        return names
    }()

    /// Looks `name` up as the validator does (`RecentNames.intern(_:in:)`): the recent names first.
    private func id(_ name: String, recent: inout RecentNames, table: inout NameTable) -> Int {
        ByteView.withBytes(of: name) { bytes in recent.intern(bytes, in: &table) }
    }

    @Test(arguments: 0..<20 as Range<UInt64>) func namesInTurnFindTheirOwnIDs(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var recent = RecentNames()
        var table = NameTable()
        var expected: [String: Int] = [:]
        // A few names in turn (as a trace's stores), now and then one of all the others.
        let regulars = (0..<Int.random(in: 1...6, using: &random)).map { _ in Self.names.randomElement(using: &random)!
        }
        for step in 0..<2_000 {
            let name =
                Int.random(in: 0..<5, using: &random) == 0
                ? Self.names.randomElement(using: &random)! : regulars[step % regulars.count]
            let id = id(name, recent: &recent, table: &table)
            if expected[name] == nil { expected[name] = expected.count }
            #expect(id == expected[name], "\(name) at step \(step)")
        }
    }

    /// A name written with escapes is the name it decodes to: the same id as its plain spelling,
    /// whichever comes first, and another name's id never.
    @Test func anEscapedNameHasItsDecodedNamesID() {
        let line = Array(#"{"a":"Cart","b":"Ca\u0072t","c":"Cat","d":"Ca\u0074"}"#.utf8)
        // The bytes between the quotes of `value` in the line.
        func text(_ value: String, escaped: Bool) -> EventFields.Text {
            let quoted = Array("\"\(value)\"".utf8)
            let start = (0...(line.count - quoted.count)).first { Array(line[$0..<($0 + quoted.count)]) == quoted }!
            return EventFields.Text(range: (start + 1)..<(start + quoted.count - 1), hasEscapes: escaped)
        }
        ByteView.withBytes(of: line) { line in
            for order in [[0, 1, 2, 3], [1, 0, 3, 2], [3, 1, 2, 0]] {
                var recent = RecentNames()
                var table = NameTable()
                let texts = [
                    text("Cart", escaped: false), text(#"Ca\u0072t"#, escaped: true), text("Cat", escaped: false),
                    text(#"Ca\u0074"#, escaped: true),
                ]
                var ids = [Int](repeating: -1, count: texts.count)
                for index in order + order { ids[index] = recent.intern(texts[index], of: line, in: &table) }
                #expect(ids[0] == ids[1], "order \(order)")
                #expect(ids[2] == ids[3], "order \(order)")
                #expect(ids[0] != ids[2], "order \(order)")
                #expect(table.name(ids[1]) == "Cart" && table.name(ids[3]) == "Cat", "order \(order)")
            }
        }
    }

    @Test func keysHoldNamesUpToSixteenBytes() {
        for name in Self.names {
            var bytes = Array(name.utf8)
            let key = ByteView.withBytes(of: bytes) { RecentNames.Key($0) }
            #expect((key == nil) == (bytes.count > 16), "\(name)")
            // The same name in other memory, with other bytes around it, has the same key.
            bytes = [0xFF] + bytes + [0xFF]
            let moved = ByteView.withBytes(of: bytes) {
                RecentNames.Key($0[1..<($0.count - 1)])
            }
            #expect(moved == key, "\(name)")
        }
    }

    @Test func storeNameTableGivesIDsInTheOrderNamesFirstCome() {
        var table = StoreNameTable()
        let sequence = [
            "Cart", "Catalog", "Cart", "Door", "Card", "Catalog", "Cart", "Door", "A", "B", "C", "D", "Card",
        ]
        let ids = sequence.map { table.id(for: $0) }
        #expect(ids == [0, 1, 0, 2, 3, 1, 0, 2, 4, 5, 6, 7, 3])
        #expect(table.names == ["Cart", "Catalog", "Door", "Card", "A", "B", "C", "D"])
    }
}
