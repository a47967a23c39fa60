import Testing

@testable import TraceJSON

/// The decoder builds its tape through the parser's own walk (`JSONScanner.scanDocument(into:)`,
/// with `JSONTapeState` as the sink), which also counts members and classifies names for it.
/// Whatever the input, it must accept exactly what `JSONParser` accepts, read it the same way,
/// and reject the rest with the parser's error.
@Suite struct JSONTapeSyntaxTests {
    @Test(arguments: JSONConformanceCases.accepted)
    func readsValidJSONAsTheParserDoes(_ input: JSONCase) {
        let expected = DecodingOutcome(parsing: input.bytes)
        #expect(DecodingOutcome(decoding: input.bytes) == expected)
    }

    @Test(arguments: JSONConformanceCases.rejected)
    func rejectsInvalidJSONWithTheParsersError(_ input: JSONCase) {
        let outcome = DecodingOutcome(decoding: input.bytes)
        guard case .syntaxError = outcome else {
            Issue.record("\(input.name) was not rejected as invalid JSON: \(outcome)")
            return
        }
        #expect(outcome == DecodingOutcome(parsing: input.bytes))
    }

    @Test(arguments: JSONConformanceCases.undecided)
    func agreesWithTheParserOnImplementationDefinedInputs(_ input: JSONCase) {
        #expect(DecodingOutcome(decoding: input.bytes) == DecodingOutcome(parsing: input.bytes))
    }

    /// Documents that exercise every path of the walk and the tape's sink: plain and escaped
    /// strings, long and short ones, UTF-8 of every length, numbers of every shape, literals,
    /// whitespace, nesting, repeated names.
    static let seeds: [String] = [
        #"{"name":"plain","n":-12.5e+3,"ok":true,"no":false,"none":null,"list":[1,2,[3,[]],{}],"e":{}}"#,
        "{\"é\":\"caf\u{E9} \u{1F600} \u{4E2D}\u{6587}\",\"esc\":\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\"}",
        "[\"exactly8\",\"sixteen bytes!!!\",\"\",\"x\",\"a string that is longer than thirty-two bytes\"]",
        " \t\r\n[ 1 , 0 , -0 , 0.5 , 1E2 , 1e-2 , 123456789012345678901234567890 , \"s\" ] \n",
        #"{"a":{"b":{"c":[[[{"d":[true,false,null]}]]]}},"z":"end"}"#,
        #"[{"k":1,"k":2},{"\u006b":3}]"#,
    ]

    /// A fixed-seed generator (SplitMix64), so that every run tests the same inputs.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    /// Bytes that matter to the grammar, for mutations.
    static let interesting: [UInt8] =
        Array(#"{}[],:"\/ntfreu0123456789+-.eE"#.utf8) + [
            0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xE0, 0xED, 0xF0, 0xF4, 0xFF,
        ]

    @Test(arguments: 0..<seeds.count)
    func mutatedDocumentsAgreeWithTheParser(_ seedIndex: Int) {
        let seed = Array(Self.seeds[seedIndex].utf8)
        var generator = Generator(state: UInt64(seedIndex + 1))
        var rejected = 0
        for _ in 0..<1500 {
            var bytes = seed
            for _ in 0...generator.below(3) {
                let position = generator.below(bytes.count + 1)
                switch generator.below(5) {
                case 0 where position < bytes.count: bytes.remove(at: position)
                case 1: bytes.insert(Self.interesting[generator.below(Self.interesting.count)], at: position)
                case 2 where position < bytes.count:
                    bytes[position] = Self.interesting[generator.below(Self.interesting.count)]
                case 3: bytes = Array(bytes[..<position])
                default: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: position)
                }
            }
            let expected = DecodingOutcome(parsing: bytes)
            if case .syntaxError = expected { rejected += 1 }
            let outcome = DecodingOutcome(decoding: bytes)
            #expect(outcome == expected, "input: \(bytes)")
            if outcome != expected { return }
        }
        // The mutations reach both sides of the grammar.
        #expect(rejected > 100 && rejected < 1500)
    }

    @Test func unmutatedSeedsDecode() {
        for seed in Self.seeds {
            let bytes = Array(seed.utf8)
            guard case .decoded = DecodingOutcome(parsing: bytes) else {
                Issue.record("seed is not valid JSON: \(seed)")
                continue
            }
            #expect(DecodingOutcome(decoding: bytes) == DecodingOutcome(parsing: bytes))
        }
    }

    @Test func byteOrderMarkAndTrailingGarbageAreRejected() {
        for text in ["\u{FEFF}[1]", "[1] x", "[1]]", "{} {}", "", "   "] {
            let bytes = Array(text.utf8)
            let outcome = DecodingOutcome(decoding: bytes)
            guard case .syntaxError(let error) = outcome else {
                Issue.record("accepted \(text.debugDescription)")
                continue
            }
            #expect(outcome == DecodingOutcome(parsing: bytes))
            #expect(!error.message.isEmpty)
        }
    }

    @Test func nestingLimitIsTheParsers() throws {
        let limit = JSONParser.maximumDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(DecodingOutcome(decoding: Array(deepest.utf8)) == DecodingOutcome(parsing: Array(deepest.utf8)))
        for opener in ["[", #"{"a":"#] {
            let tooDeep = Array(String(repeating: opener, count: 100_000).utf8)
            let outcome = DecodingOutcome(decoding: tooDeep)
            guard case .syntaxError(let error) = outcome else {
                Issue.record("accepted \(opener) × 100 000")
                continue
            }
            #expect(error.message == "nesting deeper than 1024 levels is not supported")
        }
    }
}
