import TestSupport
import Testing

@testable import TraceJSON

/// Paths that name an array element by its `id` (issue 20, item 7): `lines[id: "MUG"]`.
@Suite struct StatePathItemIDTests {
    static let cart =
        #"{"lines": [{"id": "A", "quantity": 1}, {"id": 42, "quantity": 7}, {"id": "MUG", "quantity": 2}]}"#

    @Test(
        arguments: [
            (
                #"CartStore.lines[id: "MUG"].quantity"#,
                [.key("CartStore"), .key("lines"), .id(.string("MUG")), .key("quantity")]
            ),
            ("lines[id: 42]", [.key("lines"), .id(.integer(42))]),
            ("lines[id:-7]", [.key("lines"), .id(.integer(-7))]),
            (#"lines[id: "a \"b\" ]"].x"#, [.key("lines"), .id(.string(#"a "b" ]"#)), .key("x")]),
        ] as [(String, [StatePath.Component])])
    func parsesIDs(text: String, components: [StatePath.Component]) throws {
        #expect(try StatePath(parsing: text).components == components)
    }

    @Test func printsIDsAsJSONAndReadsBackWhatItPrints() throws {
        let paths = [
            StatePath([.key("CartStore"), .key("lines"), .id(.string("MUG")), .key("quantity")]),
            StatePath([.key("lines"), .id(.integer(-42))]),
            StatePath([.key("lines"), .id(.string("esc\u{1B}[2J \"q\""))]),
            StatePath([.id(.string("")), .index(3)]),
        ]
        #expect(paths[0].description == #"CartStore.lines[id: "MUG"].quantity"#)
        #expect(paths[1].description == "lines[id: -42]")
        #expect(paths[2].description == #"lines[id: "esc\u001b[2J \"q\""]"#)
        for path in paths { #expect(try StatePath(parsing: path.description) == path) }
    }

    @Test(arguments: [
        ("lines[id: ]", 11, "expected an id after 'id:'"),
        ("lines[id: MUG]", 11, "expected an id after 'id:'"),
        (#"lines[id: "MUG""#, 16, "expected ']' to close"),
        ("lines[id: 99999999999999999999]", 11, "an integer that fits in 64 bits"),
        ("lines[id: 1.5]", 12, "expected ']' to close"),
    ])
    func reportsWhatToWriteForABadID(text: String, column: Int, message: String) {
        #expect {
            _ = try StatePath(parsing: text)
        } throws: { error in
            guard let error = error as? StatePathError else { return false }
            return error.column == column && error.message.contains(message)
        }
    }

    @Test func resolvesTheFirstElementWithTheID() throws {
        let state = try JSONParser.parse(Self.cart)
        #expect(try StatePath(parsing: #"lines[id: "MUG"].quantity"#).resolve(in: state) == .number("2"))
        #expect(try StatePath(parsing: "lines[id: 42].quantity").resolve(in: state) == .number("7"))
        #expect(try StatePath(parsing: #"lines[id: "42"]"#).resolve(in: state) == nil)  // a string is not 42
        #expect(try StatePath(parsing: #"lines[id: "NONE"]"#).resolve(in: state) == nil)
        let twice = try JSONParser.parse(#"[{"id": 1, "n": "first"}, {"id": 1, "n": "second"}]"#)
        #expect(StatePath([.id(.integer(1)), .key("n")]).resolve(in: twice) == .string("first"))
    }

    @Test func resolvesInTextAsInValues() throws {
        let text = try JSONText(validating: Array(Self.cart.utf8))
        for path in [#"lines[id: "MUG"].quantity"#, "lines[id: 42]", #"lines[id: "none"]"#, #"lines[id: "A"].x"#] {
            let parsed = try StatePath(parsing: path)
            #expect(parsed.resolve(in: text)?.value == parsed.resolve(in: text.value), "\(path)")
        }
    }

    @Test func aJSONPointerNeedsTheStateToTurnAnIDIntoAnIndex() throws {
        let state = try JSONParser.parse(#"{"CartStore": \#(Self.cart)}"#)
        let path = try StatePath(parsing: #"CartStore.lines[id: "MUG"].quantity"#)
        #expect(try path.jsonPointer(in: state) == "/CartStore/lines/2/quantity")
        #expect(try path.positions(in: state).description == "CartStore.lines[2].quantity")
        #expect {
            _ = try StatePath(parsing: #"CartStore.lines[id: "NONE"]"#).jsonPointer(in: state)
        } throws: { error in
            (error as? StatePathError)?.message.contains(#"no element has id "NONE""#) == true
        }
        // Without a state, the id is a token that points at no element.
        #expect(path.jsonPointer == "/CartStore/lines/[id: \"MUG\"]/quantity")
    }

    @Test func followingItemsTurnsIndicesIntoIDsWhereEveryItemHasADistinctID() throws {
        let state = try JSONParser.parse(
            #"{"lines": [{"id": "A"}, {"id": "MUG", "tags": [{"id": 1}, {"id": 1}]}], "plain": [1, 2]}"#)
        #expect(
            try StatePath(parsing: "lines[1].quantity").followingItems(in: state).description
                == #"lines[id: "MUG"].quantity"#)
        #expect(try StatePath(parsing: "lines.1").followingItems(in: state).description == #"lines[id: "MUG"]"#)
        // Duplicate ids, no ids, and positions past the end stay positions.
        #expect(
            try StatePath(parsing: "lines[1].tags[0]").followingItems(in: state).description
                == #"lines[id: "MUG"].tags[0]"#)
        #expect(try StatePath(parsing: "plain[1]").followingItems(in: state).description == "plain[1]")
        #expect(try StatePath(parsing: "lines[5].x").followingItems(in: state).description == "lines[5].x")
    }
}
