import Testing

@testable import TraceJSON

/// Member order, duplicates, lookup and editing of `JSONObject`, small and large.
@Suite struct JSONObjectTests {
    @Test func keepsOrderAndDuplicates() throws {
        let value = try JSONParser.parse(#"{"z":1,"a":2,"z":3,"m":4}"#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["z", "a", "z", "m"])
        #expect(object.count == 4)
        #expect(object["z"] == .number("3"))
        #expect(object[0].key == "z" && object[0].value == .number("1"))
        #expect(object["missing"] == nil)
        #expect(value["a"] == .number("2"))
    }

    @Test func literalAndMembersInitializers() {
        let literal: JSONObject = ["b": .bool(true), "a": .null]
        let members = JSONObject([(key: "b", value: .bool(true)), (key: "a", value: .null)])
        #expect(literal == members)
        #expect(literal.keys == ["b", "a"])
        #expect(JSONObject().isEmpty)
    }

    @Test func equalityDependsOnOrder() {
        let ab: JSONObject = ["a": .null, "b": .null]
        let ba: JSONObject = ["b": .null, "a": .null]
        #expect(ab != ba)
        #expect(JSONValue.object(ab).isEquivalent(to: .object(ba)))
        #expect(Set([JSONValue.object(ab), .object(ab)]).count == 1)
    }

    @Test func setReplacesInPlaceAppendsAndRemoves() {
        var object: JSONObject = ["a": .number("1"), "b": .number("2"), "a": .number("3")]
        object.set(.string("x"), forKey: "a")
        #expect(object.keys == ["a", "b", "a"])
        #expect(object["a"] == .string("x"))
        #expect(object[0].value == .number("1"))
        object.set(.bool(false), forKey: "c")
        #expect(object.keys == ["a", "b", "a", "c"])
        object.set(nil, forKey: "a")
        #expect(object.keys == ["b", "c"])
        #expect(object["a"] == nil)
        object.set(nil, forKey: "nothing")
        #expect(object.count == 2)
        object.append(key: "b", value: .null)
        #expect(object["b"] == .null)
        #expect(object.keys == ["b", "c", "b"])
    }

    @Test func largeObjectsLookUpLikeSmallOnes() {
        var built = JSONObject()
        var reference: [String: Int] = [:]
        for index in 0..<10_000 {
            let key = "key\(index % 7_000)"  // some names repeat: the last one wins
            built.append(key: key, value: .number("\(index)"))
            reference[key] = index
        }
        #expect(built.count == 10_000)
        for (key, index) in reference {
            #expect(built[key] == .number("\(index)"))
        }
        built.set(.string("new"), forKey: "key5")
        #expect(built["key5"] == .string("new"))
        built.set(nil, forKey: "key6")
        #expect(built["key6"] == nil)
        #expect(built["key7"] == .number("7007"))
        #expect(built.count == 9_998)
        built.set(.null, forKey: "brand new")
        #expect(built["brand new"] == .null)
        #expect(built.keys.last == "brand new")
    }

    @Test func parsedLargeObjectEqualsBuiltOne() throws {
        let text = "{" + (0..<500).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        let parsed = try #require(try JSONParser.parse(text).objectValue)
        var built = JSONObject()
        for index in 0..<500 { built.append(key: "k\(index)", value: .number("\(index)")) }
        #expect(parsed == built)
        #expect(parsed.hashValue == built.hashValue)
        #expect(parsed["k499"] == .number("499"))
        #expect(parsed["k500"] == nil)
    }
}
