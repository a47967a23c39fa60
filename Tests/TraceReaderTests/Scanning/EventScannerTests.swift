@_spi(RewindInternals) import RewindSupport
import TestSupport
import Testing

@testable import TraceJSON
@testable import TraceReader

@Suite struct EventScannerTests {
    private func scan(_ text: String) throws(JSONParseError) -> EventFields {
        try ByteView.withBytes(of: Array(text.utf8)) { buffer in
            Result { () throws(JSONParseError) in try EventScanner.scan(buffer) }
        }.get()
    }

    private func string(_ text: EventFields.Text?, in line: String) -> String? {
        guard let text else { return nil }
        return ByteView.withBytes(of: line) { EventFields.string(text, in: $0) }
    }

    @Test func theKeyNumbersArePackedNames() {
        for key in EventFields.Key.allCases {
            #expect(EventScanner.pack(key.name.utf8).flatMap(EventScanner.key(packed:)) == key, "\(key.name)")
        }
        #expect(EventScanner.key(named: "stat") == nil)
        #expect(EventScanner.key(named: "states") == nil)
        #expect(EventScanner.key(named: "") == nil)
    }

    @Test func readsEveryFieldOfARecordedTransition() throws {
        let line =
            #"{"type":"transition","seq":16,"elapsed":0.0021,"store":"CatalogStore","action":"toLoading","from":"loading","to":"loading","changed":false,"state":{"loading":{"page":[1,2]}},"source":"CatalogStore.swift:31","cause":15,"args":{"id":"x"}}"#
        let fields = try scan(line)
        #expect(string(fields.type, in: line) == "transition")
        #expect(fields.seq == 16)
        #expect(fields.hasElapsed)
        #expect(string(fields.store, in: line) == "CatalogStore")
        #expect(string(fields.action, in: line) == "toLoading")
        #expect(string(fields.from, in: line) == "loading")
        #expect(string(fields.to, in: line) == "loading")
        #expect(fields.changed == false)
        #expect(string(fields.source, in: line) == "CatalogStore.swift:31")
        #expect(fields.cause == 15)
        let utf8 = Array(line.utf8)
        #expect(fields.stateRange.map { String(decoding: utf8[$0], as: UTF8.self) } == #"{"loading":{"page":[1,2]}}"#)
        #expect(fields.argsRange.map { String(decoding: utf8[$0], as: UTF8.self) } == #"{"id":"x"}"#)
        #expect(fields.wrongTypes.isEmpty)
        #expect(fields.has(.state) && fields.has(.args) && !fields.has(.caseName))
    }

    @Test func readsTheKeysOfTheVersionTwoPage() throws {
        let line =
            #"{"type":"restore","seq":9,"store":"C","case":"a","state":1,"step":5,"trace":"run.jsonl","stack":["f (A.swift:1)","g"],"machine":{"initial":"a","transitions":{"a":[]}},"patch":[{"op":"add","path":"/a","value":1}]}"#
        let fields = try scan(line)
        let utf8 = Array(line.utf8)
        #expect(fields.wrongTypes.isEmpty)
        #expect(
            fields.has(.step) && fields.has(.trace) && fields.has(.stack) && fields.has(.machine) && fields.has(.patch))
        #expect(
            fields.machineRange.map { String(decoding: utf8[$0], as: UTF8.self) }
                == #"{"initial":"a","transitions":{"a":[]}}"#)
        #expect(
            fields.patchRange.map { String(decoding: utf8[$0], as: UTF8.self) }
                == #"[{"op":"add","path":"/a","value":1}]"#)
    }

    @Test func theVersionTwoKeysHaveTheirTypes() throws {
        let fields = try scan(#"{"step":"5","trace":5,"stack":["a",1],"machine":[],"patch":7}"#)
        #expect(fields.wrongTypes.keys == [.step, .trace, .stack, .machine])
        // Any `patch` value is kept: its shape is the version's business.
        #expect(fields.has(.patch))
        for stack in ["[]", #"[ "a" , "b\n" ]"#, #"["\u00e9"]"#] {
            #expect(try scan(#"{"stack":\#(stack)}"#).has(.stack), "\(stack)")
        }
        for stack in [#""a""#, "[null]", #"[["a"]]"#, #"["a",{}]"#, "{}"] {
            #expect(try scan(#"{"stack":\#(stack)}"#).wrongTypes.contains(.stack), "\(stack)")
        }
        for step in ["1.0", "1e2", "99999999999999999999", "-0"] where step != "-0" {
            #expect(try scan(#"{"step":\#(step)}"#).wrongTypes.contains(.step), "\(step)")
        }
    }

    @Test func aRepeatedNewKeyKeepsTheLastValue() throws {
        let fields = try scan(#"{"machine":1,"machine":{"initial":"a","transitions":{"a":[]}},"patch":[],"patch":{}}"#)
        #expect(fields.wrongTypes.isEmpty && fields.has(.machine))
        let line = #"{"patch":[],"patch":{}}"#
        #expect(try scan(line).patchRange.map { String(decoding: Array(line.utf8)[$0], as: UTF8.self) } == "{}")
    }

    @Test func aStateOfAnyTypeIsKeptAsItsBytes() throws {
        for state in ["null", "true", "-1.5e3", #""s""#, "[]", #"{"a":{"b":[{}]}}"#] {
            let line = #"{"type":"register","seq":1,"store":"S","state":"# + state + " }"
            let fields = try scan(line)
            #expect(fields.stateRange.map { String(decoding: Array(line.utf8)[$0], as: UTF8.self) } == state)
        }
    }

    @Test func wrongTypesAreListedAndTheValueIsLeftOut() throws {
        let fields = try scan(#"{"seq":1.5,"cause":-3,"store":null,"changed":0,"elapsed":"x","args":[],"case":false}"#)
        #expect(fields.wrongTypes.keys == [.seq, .elapsed, .store, .caseName, .changed, .args])
        #expect(fields.seq == nil && fields.store == nil && fields.changed == nil && fields.argsRange == nil)
        #expect(fields.cause == -3)
    }

    @Test func integersMustBeWrittenAsIntegersThatFit() throws {
        #expect(try scan(#"{"seq":9223372036854775807}"#).seq == Int.max)
        #expect(try scan(#"{"seq":-9223372036854775808}"#).seq == Int.min)
        #expect(try scan(#"{"seq":-0}"#).seq == 0)
        for text in ["9223372036854775808", "1.0", "1e2", "1E2", "-9223372036854775809"] {
            #expect(try scan(#"{"seq":"# + text + "}").wrongTypes.keys == [.seq], "\(text)")
        }
    }

    /// Around the 18 digits read without overflow checks, and in the recorder's layout too.
    @Test func integersOfEighteenToTwentyDigits() throws {
        let cases: [(String, Int?)] = [
            ("999999999999999999", 999_999_999_999_999_999), ("1000000000000000000", 1_000_000_000_000_000_000),
            ("9999999999999999999", nil), ("18446744073709551615", nil), ("18446744073709551616", nil),
            ("99999999999999999999", nil), ("-999999999999999999", -999_999_999_999_999_999),
            ("123456789012345678", 123_456_789_012_345_678), ("00", nil), ("0123", nil),
        ]
        for (text, value) in cases {
            for line in [
                #"{"seq":"# + text + "}",
                #"{"type":"register","seq":"# + text + #","elapsed":0,"store":"S","state":1}"#,
            ] {
                let fields = try? scan(line)
                if value != nil, line.hasPrefix(#"{"type""#) {
                    #expect(ByteView.withBytes(of: Array(line.utf8)) { EventScanner.scanRecorderLayout($0) } == fields)
                }
                if text.hasPrefix("0") {
                    #expect(fields == nil, "\(line)")  // leading zeros: not JSON
                } else {
                    #expect(fields?.seq == value, "\(line)")
                    #expect(fields?.wrongTypes.keys == (value == nil ? [.seq] : []), "\(line)")
                }
            }
        }
    }

    /// Numbers whose digit runs end on every offset around the 8-byte steps of the fast path.
    @Test func elapsedNumbersOfEveryLength() throws {
        for integer in ["0", "1", "12345678", "123456789", "1234567890123456"] {
            for fraction in ["", ".5", ".00000001", ".123456789", ".1234567890123456"] {
                for exponent in ["", "e7", "E-12345678", "e+123456789"] {
                    let number = integer + fraction + exponent
                    for tail in ["}", #","store":"S","state":1}"#] {
                        let line = #"{"type":"register","seq":1,"elapsed":"# + number + tail
                        let fields = try scan(line)
                        if tail != "}" {
                            // The fast path reads the line, and reads what the general scan reads.
                            let fast = ByteView.withBytes(of: Array(line.utf8)) { EventScanner.scanRecorderLayout($0) }
                            #expect(fast == fields, "\(line)")
                        }
                        let range = try #require(fields.elapsedRange, "\(line)")
                        #expect(String(line.utf8.dropFirst(range.lowerBound).prefix(range.count)) == number)
                    }
                }
            }
        }
        for bad in ["1.", "1.e5", "1e", "1e+", "-", "01", "1.5x"] {
            let line = #"{"type":"register","seq":1,"elapsed":"# + bad + #","store":"S","state":1}"#
            #expect(throws: JSONParseError.self, "\(line)") { try scan(line) }
        }
    }

    @Test func theLastDuplicateKeyWins() throws {
        let fields = try scan(#"{"seq":"x","seq":2,"store":"A","store":7}"#)
        #expect(fields.seq == 2)
        #expect(fields.store == nil)
        #expect(fields.wrongTypes.keys == [.store])
    }

    @Test func escapedKeysAndValuesAreDecoded() throws {
        let line = #"{"\u0074ype":"reg\u0069ster","st\"ore":1,"store":"a\nb"}"#
        let fields = try scan(line)
        #expect(string(fields.type, in: line) == "register")
        #expect(fields.type?.hasEscapes == true)
        #expect(string(fields.store, in: line) == "a\nb")
        #expect(fields.wrongTypes.isEmpty)  // "st\"ore" is another key
    }

    @Test func whitespaceAndACarriageReturnAreAllowed() throws {
        let fields = try scan(" \t{ \"seq\" : 3 , \"type\" :\"x\" } \r")
        #expect(fields.seq == 3)
    }

    @Test(arguments: [
        ("", 1), ("{", 2), (#"{"seq":1"#, 9), (#"{"seq":1,}"#, 10), (#"{"seq":1}x"#, 10), (#"{"seq":01}"#, 8),
        (#"{"seq":1 "type":"x"}"#, 10), (#"{seq:1}"#, 2), (#"{"a":[1,]}"#, 9), (#"{"a":"\q"}"#, 7),
    ])
    func invalidJSONIsAnErrorWithItsColumn(line: String, column: Int) {
        #expect(throws: JSONParseError.self) { try scan(line) }
        do {
            _ = try scan(line)
        } catch {
            #expect(error.column == column, "\(line): \(error)")
            #expect(error.line == 1)
        }
    }

    @Test func validJSONThatIsNotAnObjectSaysWhatItIs() {
        do {
            _ = try scan("[1]")
            Issue.record("an array was accepted")
        } catch {
            #expect(error.message.hasPrefix("the line is an array, not a JSON object"))
        }
    }
}
