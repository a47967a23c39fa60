import TestSupport
import Testing

@testable import TraceJSON
@testable import TraceQueries

@Suite struct PatchTouchTests {
    static func touches(_ path: String, _ patch: String) throws -> Bool {
        let operations = try #require(try JSONParser.parse(patch).arrayValue)
        return PatchTouch.mayChange(try StatePath(parsing: path).components[...], operations: operations)
    }

    @Test func anOperationAtThePathAPrefixOrUnderItTouchesIt() throws {
        #expect(try Self.touches("lines[2].quantity", #"[{"op":"replace","path":"/lines/2/quantity","value":1}]"#))
        #expect(try Self.touches("lines.2.quantity", #"[{"op":"remove","path":"/lines/2"}]"#))
        #expect(try Self.touches("lines[2]", #"[{"op":"replace","path":"/lines/2/quantity","value":1}]"#))
        #expect(try Self.touches("lines", #"[{"op":"replace","path":"","value":1}]"#))
        #expect(try Self.touches("a", #"[{"op":"move","from":"/a","path":"/b"}]"#))
        #expect(try !Self.touches("a", #"[{"op":"copy","from":"/a","path":"/b"}]"#))
        #expect(try !Self.touches("a", #"[{"op":"test","path":"/a","value":1}]"#))
        #expect(try !Self.touches("total", #"[{"op":"replace","path":"/lines/2","value":1}]"#))
        #expect(try !Self.touches("a~b", #"[{"op":"replace","path":"/a~0c","value":1}]"#))
        #expect(try Self.touches("[\"a/b\"]", #"[{"op":"replace","path":"/a~1b","value":1}]"#))
    }

    @Test func anInsertionOrRemovalBeforeTheElementTouchesIt() throws {
        #expect(try Self.touches("lines[2].sku", #"[{"op":"remove","path":"/lines/0"}]"#))
        #expect(try Self.touches("lines[2].sku", #"[{"op":"add","path":"/lines/2","value":{}}]"#))
        #expect(try Self.touches("lines[3]", #"[{"op":"add","path":"/lines/-","value":{}}]"#))
        #expect(try !Self.touches("lines[2].sku", #"[{"op":"remove","path":"/lines/3"}]"#))
        #expect(try !Self.touches("lines[2].sku", #"[{"op":"replace","path":"/lines/0","value":{}}]"#))
        #expect(try Self.touches("lines[2]", #"[{"op":"move","from":"/lines/1","path":"/other"}]"#))
    }

    @Test func anOperationThatCannotBeReadMayTouchAnything() throws {
        #expect(try Self.touches("a", #"[{"op":"frobnicate","path":"/z"}]"#))
        #expect(try Self.touches("a", #"[{"op":"replace","path":"no-slash","value":1}]"#))
        #expect(try Self.touches("a", #"[{"op":"move","path":"/z"}]"#))
        #expect(try Self.touches("a", "[1]"))
    }

    /// Sound on random edits: a patch that does not touch a path leaves the value there as it
    /// was.
    @Test func aPatchThatDoesNotTouchAPathLeavesItsValue() throws {
        var untouched = 0
        for seed in UInt64(0)..<300 {
            var generator = DiffStateGenerator(seed: seed)
            let (before, after) = generator.pair()
            let patch = JSONPatch.make(from: before, to: after)
            let operations = try #require(patch.arrayValue)
            var tails = ValueHistoryVersionTwoTests.paths(in: before, depth: 4)
            tails += ValueHistoryVersionTwoTests.paths(in: after, depth: 4)
            for tail in tails where !PatchTouch.mayChange(tail[...], operations: operations) {
                untouched += 1
                let path = StatePath(tail)
                let old = path.resolve(in: before)
                let new = path.resolve(in: after)
                #expect(ValueHistoryVersionTwoTests.same(old, new), "seed \(seed), \(path), patch \(patch)")
            }
        }
        #expect(untouched > 1_000)
    }
}
