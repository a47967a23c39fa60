import TestSupport
import Testing

@testable import Recorder
@testable import TraceJSON

@Suite struct StatePathTests {
    typealias Component = StatePath.Component

    @Test func printsPlainNamesAfterDotsAndIndicesInBrackets() {
        let path = StatePath([.key("CatalogStore"), .key("loaded"), .key("_0"), .index(3), .key("title")])
        #expect(path.description == "CatalogStore.loaded._0[3].title")
        #expect(StatePath().description == ".")
        #expect(StatePath([.index(0), .key("a")]).description == "[0].a")
    }

    @Test(arguments: [
        ("with space", #"["with space"]"#),
        ("", #"[""]"#),
        ("1234", #"["1234"]"#),
        ("2fa", #"["2fa"]"#),
        ("a.b", #"["a.b"]"#),
        ("a[0]", #"["a[0]"]"#),
        ("say \"hi\"", #"["say \"hi\""]"#),
        ("SPRING-10", #"["SPRING-10"]"#),
        ("esc\u{1B}[2J", #"["esc\u001b[2J"]"#),
        ("c1\u{9B}", #"["c1\u009b"]"#),
        ("join\u{200D}er", "[\"join\u{200D}er\"]"),
    ])
    func quotesNamesThatAreNotPlainWords(name: String, printed: String) {
        #expect(StatePath([.key("Store"), .key(name)]).description == "Store" + printed)
    }

    @Test(arguments: ["_0", "title", "café", "日本", "Δx", "a1_b2"])
    func unicodeLettersArePlainWords(name: String) {
        #expect(StatePath([.key("Store"), .key(name)]).description == "Store." + name)
    }

    @Test func printedPathsContainNoRawControlCharacters() throws {
        let path = StatePath([.key("\u{1B}]0;title\u{7}"), .key("\u{85}\u{2028}")])
        let controls = path.description.unicodeScalars.filter {
            $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028
        }
        #expect(controls.isEmpty)
        #expect(try StatePath(parsing: path.description) == path)
    }

    @Test func roundTripsGeneratedPaths() throws {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<500 {
            var components: [Component] = []
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                if random.chance(0.3) {
                    components.append(.index(Int.random(in: 0...100_000, using: &random)))
                } else {
                    components.append(.key(random.pick(DiffStateGenerator.names + DiffStateGenerator.strings)))
                }
            }
            let path = StatePath(components)
            #expect(try StatePath(parsing: path.description) == path, "\(path)")
        }
    }

    @Test func readsTheDottedFormWithNumbersAsNames() throws {
        let path = try StatePath(parsing: "CartStore.lines.1234.quantity")
        #expect(path.components == [.key("CartStore"), .key("lines"), .key("1234"), .key("quantity")])
        #expect(
            try StatePath(parsing: "CheckoutStore.ready._0").components == [
                .key("CheckoutStore"), .key("ready"), .key("_0"),
            ])
        #expect(
            try StatePath(parsing: #"a["x.y"][2]["1"]"#).components == [.key("a"), .key("x.y"), .index(2), .key("1")])
    }

    @Test func readsTheWholeValueAndALeadingDot() throws {
        #expect(try StatePath(parsing: ".") == StatePath())
        #expect(try StatePath(parsing: "") == StatePath())
        #expect(try StatePath(parsing: ".CartStore.lines").components == [.key("CartStore"), .key("lines")])
        #expect(try StatePath(parsing: ".[3]").components == [.index(3)])
        #expect(try StatePath(parsing: #"["odd key"].a"#).components == [.key("odd key"), .key("a")])
    }

    @Test func resolvesANumberAfterADotAsAnIndexInAnArrayAndANameInAnObject() throws {
        let state = try DiffTesting.json(
            #"{"CartStore": {"lines": [{"quantity": 1}, {"quantity": 7}], "byCode": {"1": "one"}}}"#)
        #expect(try StatePath(parsing: "CartStore.lines.1.quantity").resolve(in: state) == .number("7"))
        #expect(try StatePath(parsing: "CartStore.lines[1].quantity").resolve(in: state) == .number("7"))
        #expect(try StatePath(parsing: "CartStore.byCode.1").resolve(in: state) == .string("one"))
        #expect(try StatePath(parsing: #"CartStore.byCode["1"]"#).resolve(in: state) == .string("one"))
        #expect(try StatePath(parsing: ".").resolve(in: state) == state)
    }

    @Test(arguments: [
        "CartStore.lines[2]",  // out of range
        "CartStore.lines.01",  // not a plain index
        "CartStore.lines.-1",
        "CartStore.lines.x",
        "CartStore.byCode[1]",  // an index does not select a member
        "CartStore.missing",
        "CartStore.lines[0].quantity.more",  // into a number
    ])
    func resolvesToNothingWherePathsLeadNowhere(text: String) throws {
        let state = try DiffTesting.json(
            #"{"CartStore": {"lines": [{"quantity": 1}, {"quantity": 7}], "byCode": {"1": "one"}}}"#)
        #expect(try StatePath(parsing: text).resolve(in: state) == nil)
    }

    @Test func rendersAJSONPointerWithEscapes() {
        let path = StatePath([.key("CatalogStore"), .key("a/b"), .key("m~n"), .index(3), .key("")])
        #expect(path.jsonPointer == "/CatalogStore/a~1b/m~0n/3/")
        #expect(StatePath().jsonPointer == "")
    }

    @Test(arguments: [
        ("CartStore.lines[2", 18, "expected ']' to close the '[' at column 16"),
        ("a..b", 3, "expected a name after '.'"),
        ("a.", 3, "found the end of the path"),
        ("my key", 3, "a space cannot be part of a bare name"),
        ("a[-1]", 3, "expected an index such as [3]"),
        (#"a["x]"#, 3, "the quoted name is not closed"),
        (#"a["\q"]"#, 3, "not a valid JSON string"),
        ("a[1]b", 5, "expected '.' or '[' after [1], found \"b\""),
        ("a[99999999999999999999]", 3, "the index is too large"),
        ("a\tb", 2, "U+0009 cannot be part of a bare name"),
        ("a]", 2, "\"]\" cannot be part of a bare name"),
    ])
    func reportsTheColumnAndWhatToWrite(text: String, column: Int, message: String) {
        #expect {
            _ = try StatePath(parsing: text)
        } throws: { error in
            guard let error = error as? StatePathError else { return false }
            return error.column == column && error.message.contains(message) && error.text == text
        }
    }

    @Test func describesAnErrorWithThePathAndColumn() {
        let error = StatePathError(text: "a[1", column: 4, message: "expected ']'")
        #expect(error.description == #"invalid path "a[1" at column 4: expected ']'"#)
    }
}
