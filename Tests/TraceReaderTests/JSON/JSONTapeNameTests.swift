import Testing

@testable import TraceJSON

/// The tape's sink decides, per object, while the walk reads its names, whether they can be
/// compared byte for byte (all ASCII, none escaped, none repeated) or must be compared as
/// Swift strings. A wrong "plain" loses a member: an escaped or canonically equivalent name
/// is not found, or a repeated one finds the first value instead of the last. Each case here
/// must find what `JSONObject`'s own lookup finds in the parsed document (Swift's `==`, the
/// last member winning), which involves no tape.
@Suite struct JSONTapeNameTests {
    /// Looks up each of `names` in an object, as a synthesized `init(from:)` does.
    struct Lookup: Decodable, Equatable {
        static let names = [
            "", "a", "abc", "exactly8", "abcdefgh", "abcdefgh1", "abcdefgh2", "abcdefe\u{301}",
            "abcdefghe\u{301}", "abcdefgh\u{E9}", "longer_than_eight", "K", "abcdeK", "abcdefghK",
        ]
        var values: [Int?]

        /// What `JSONObject` finds for each name in `value`, a parsed object.
        init(parsed value: JSONValue?) {
            values = Self.names.map {
                guard case .number(let text)? = value?[$0] else { return nil }
                return Int(text)
            }
        }

        init(from decoder: any Decoder) throws {
            let object = try decoder.container(keyedBy: JSONDecodingMirror.AnyKey.self)
            values = try Self.names.map {
                try object.decodeIfPresent(Int.self, forKey: JSONDecodingMirror.AnyKey(stringValue: $0))
            }
        }
    }

    /// Objects whose names are not plain, or repeat, at the places the sink looks: the first
    /// 8 bytes (one word), the bytes after them, a name of exactly 8 bytes, an empty name, and
    /// repeats separated by nested containers, which must not lose the outer object's names.
    static let documents = [
        // Non-ASCII after the first 8 bytes, in the last of exactly 8, and decomposed.
        "{\"abcdefgh\u{E9}\":1}",
        "{\"abcdef\u{E9}\":2}",
        "{\"abcdefgh\u{65}\u{301}\":3,\"a\":4}",
        // The Kelvin sign (3 bytes) is canonically a "K": an ASCII name finds it as a string.
        "{\"\u{212A}\":30}",
        "{\"abcde\u{212A}\":31}",
        "{\"abcdefgh\u{212A}\":32}",
        // Two spellings of one name: the last is the member's value, whichever is asked for.
        "{\"abcdefgh\u{E9}\":33,\"abcdefghe\u{301}\":34}",
        // Escapes, after the first 8 bytes and in them.
        #"{"abcdefgh\u00e9":5}"#,
        #"{"\u0061bc":6,"a":7}"#,
        #"{"longer_than_eigh\u0074":8}"#,
        // Empty names, plain and repeated.
        #"{"":9,"a":10}"#,
        #"{"":11,"a":12,"":13}"#,
        // Repeats: of exactly 8 bytes, longer, differing only after byte 8, and across nesting.
        #"{"exactly8":14,"exactly8":15}"#,
        #"{"longer_than_eight":16,"x":0,"longer_than_eight":17}"#,
        #"{"abcdefgh1":18,"abcdefgh2":19}"#,
        #"{"abcdefgh":20,"n":{"abcdefgh":21,"m":{}},"abcdefgh":22}"#,
        #"{"a":23,"n":[{"a":24},[],[{"a":25}]],"a":26}"#,
        #"{"n":{"a":27,"a":28},"a":29}"#,
        // An outer object's "not plain" outlives its nested containers; an inner one's stays in.
        "{\"\u{212A}\":35,\"n\":{\"a\":1,\"m\":[{}]},\"abc\":36}",
        "{\"n\":{\"\u{212A}\":37},\"abc\":38,\"a\":39}",
    ]

    @Test(arguments: documents)
    func namesAreFoundAsTheParserFindsThem(_ json: String) throws {
        let decoded = try JSONValueDecoder().decode(Lookup.self, from: Array(json.utf8))
        let expected = Lookup(parsed: try JSONParser.parse(json))
        #expect(decoded == expected)
        // Every document names at least one member that is looked up.
        #expect(expected.values.contains { $0 != nil })
    }
}
