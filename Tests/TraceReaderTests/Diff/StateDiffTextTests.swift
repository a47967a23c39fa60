import Testing

@testable import TraceJSON
@testable import TraceQueries

/// Diffs of `JSONText`s: the same as the diffs of the values they hold, however the texts are
/// written, and the same whether printed whole or in pieces.
@Suite struct StateDiffTextTests {
    private func written(_ value: JSONValue, _ seed: UInt64) throws -> JSONText {
        // Another layout and other escapes than the compact printer's.
        try JSONText(validating: Array(JSONPrinter.pretty(value, indent: Int(seed % 3), terminalSafe: true).utf8))
    }

    @Test func textsDiffAsTheirValues() throws {
        for seed in 0..<300 as Range<UInt64> {
            var generator = DiffStateGenerator(seed: seed)
            let (before, after) = generator.pair()
            let fromValues = StateDiff(from: before, to: after)
            let fromTexts = StateDiff(from: try written(before, seed), to: try written(after, seed + 1))
            #expect(fromTexts.changes == fromValues.changes, "seed \(seed)")
            let printer = StateDiffPrinter(width: 60 + Int(seed % 40))
            #expect(printer.text(fromTexts) == printer.text(fromValues), "seed \(seed)")
            #expect(printer.paths(fromTexts) == printer.paths(fromValues), "seed \(seed)")
            #expect(printer.paths(fromTexts) == fromValues.changes.map { printer.line($0) + "\n" }.joined())
            #expect(JSONPatch.text(fromTexts) == JSONPrinter.compact(JSONPatch.make(fromValues)), "seed \(seed)")
        }
    }

    @Test func theWrittenPatchTurnsTheFirstStateIntoTheSecond() throws {
        for seed in 0..<200 as Range<UInt64> {
            var generator = DiffStateGenerator(seed: seed)
            let (before, after) = generator.pair()
            let diff = StateDiff(from: try written(before, seed), to: try written(after, seed))
            let patch = try JSONParser.parse(JSONPatch.text(diff, terminalSafe: true))
            #expect(Equivalence.equal(try JSONPatch.apply(patch, to: before), after), "seed \(seed)")
        }
    }

    @Test func printingInPiecesGivesTheWholeText() throws {
        // A list of 30,000 items, one inserted and one changed: long output in every form.
        let items = (0..<30_000).map { JSONValue.object(["id": .number(String($0)), "tag": .string("t\($0 % 7)")]) }
        var edited = items
        edited.insert(.object(["id": .number("-1")]), at: 15_000)
        edited[3] = .object(["id": .number("3"), "tag": .string("changed")])
        let diff = StateDiff(
            from: JSONText(.object(["S": .array(items)])),
            to: JSONText(.object(["S": .array(edited), "T": .array(items)])))
        let printer = StateDiffPrinter(width: 80, terminalSafe: true, colors: true)
        func pieces(_ write: ((UnsafeRawBufferPointer) -> Void) -> Void) -> (text: String, count: Int) {
            var bytes: [UInt8] = []
            var count = 0
            write { piece in
                bytes.append(contentsOf: piece)
                count += 1
            }
            return (String(decoding: bytes, as: UTF8.self), count)
        }
        let tree = pieces { printer.write(diff, to: $0) }
        #expect(tree.count > 1 && tree.text == printer.text(diff))
        #expect(tree.text.contains("+ T: [") && tree.text.contains("[29999]: {"))
        let paths = pieces { printer.writePaths(diff, to: $0) }
        #expect(paths.text == printer.paths(diff))
        let patch = pieces { JSONPatch.write(diff, to: $0) }
        #expect(patch.count > 1 && patch.text == JSONPatch.text(diff))
        #expect(patch.text == JSONPrinter.compact(JSONPatch.make(diff)))
    }

    @Test func aDiffOfEqualTextsIsEmptyWithoutWalkingThem() throws {
        let value = JSONValue.array((0..<1_000).map { .number(String($0)) })
        let diff = StateDiff(from: JSONText(value), to: JSONText(value))
        #expect(diff.isEmpty && diff.changes.isEmpty)
        #expect(StateDiffPrinter().text(diff).isEmpty && JSONPatch.text(diff) == "[]")
    }
}

/// The deepest states the parser accepts are diffed, printed and patched without running out
/// of stack, on the test runner's threads (smaller stacks than the main thread's).
@Suite struct DeepStateDiffTests {
    @Test(arguments: ["[", #"{"a":"#])
    func theDeepestStatesDiff(_ opener: String) throws {
        let depth = JSONParser.maximumDepth
        let closer = opener == "[" ? "]" : "}"
        func nested(_ leaf: String) throws -> JSONText {
            try JSONText(
                validating: Array(
                    (String(repeating: opener, count: depth) + leaf + String(repeating: closer, count: depth)).utf8))
        }
        let diff = StateDiff(from: try nested("1"), to: try nested("2"))
        #expect(diff.changes.count == 1)
        #expect(StateDiffPrinter(width: 80).text(diff).contains("+ "))
        #expect(StateDiffPrinter(width: 80).paths(diff).hasSuffix("1 → 2\n"))
        let patch = try JSONParser.parse(JSONPatch.text(diff))
        #expect(try JSONPatch.apply(patch, to: try nested("1").value) == (try nested("2").value))
        #expect(JSONPrinter.pretty(try nested("2")) == JSONPrinter.pretty(try nested("2").value))
    }
}
