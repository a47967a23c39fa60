import Testing

@testable import TraceJSON

/// `JSONText`: checked as the parser checks, printed as the value it holds, hashed as the diff
/// compares.
@Suite struct JSONTextTests {
    private func text(_ string: String) throws -> JSONText {
        try JSONText(validating: Array(string.utf8))
    }

    @Test(arguments: JSONConformanceCases.accepted)
    func acceptsWhatTheParserAccepts(_ input: JSONCase) throws {
        let text = try JSONText(validating: input.bytes)
        let value = try JSONParser.parse(input.bytes)
        #expect(text.value == value)
        #expect(JSONPrinter.compact(text) == JSONPrinter.compact(value))
        #expect(JSONPrinter.pretty(text, terminalSafe: true) == JSONPrinter.pretty(value, terminalSafe: true))
    }

    @Test(arguments: JSONConformanceCases.rejected)
    func rejectsWhatTheParserRejects(_ input: JSONCase) {
        let textError: JSONParseError? = {
            do throws(JSONParseError) {
                _ = try JSONText(validating: input.bytes)
                return nil
            } catch {
                return error
            }
        }()
        #expect(textError != nil)
        #expect(textError == input.bytes.withUnsafeBytes { JSONSyntax.validate($0) })
    }

    @Test func printsGeneratedValuesAsTheValuesPrint() throws {
        for seed in 0..<200 as Range<UInt64> {
            var generator = DiffStateGenerator(seed: seed)
            let value = generator.value(depth: 4)
            // Written with whitespace and escapes the compact printer would not use.
            let written = try text(JSONPrinter.pretty(value, indent: 3, terminalSafe: true))
            #expect(JSONPrinter.compact(written) == JSONPrinter.compact(value), "seed \(seed)")
            #expect(JSONPrinter.pretty(written) == JSONPrinter.pretty(value), "seed \(seed)")
            #expect(JSONPrinter.compact(JSONText(value)) == JSONPrinter.compact(value), "seed \(seed)")
        }
    }

    @Test func repeatedNamesPrintTheirLastMemberAndHashAsIt() throws {
        let repeated = try text(#"{"a":1,"b":{"x":1,"x":2},"a":3}"#)
        #expect(JSONPrinter.compact(repeated) == #"{"b":{"x":2},"a":3}"#)
        #expect(Equivalence.hash(repeated.value) == Equivalence.hash(try JSONParser.parse(#"{"a":3,"b":{"x":2}}"#)))
        #expect(StateDiff(from: repeated, to: try text(#"{"a":3,"b":{"x":2}}"#)).isEmpty)
        #expect(!StateDiff(from: repeated, to: try text(#"{"a":1,"b":{"x":2}}"#)).isEmpty)
    }

    @Test func sameDataHashesAlikeHoweverWritten() throws {
        let pairs = [
            (#"{"a":[1,2.0,{"b":null}],"c":"é"}"#, #"{ "c" : "\u00e9", "a" : [ 1.0, 2, { "b" : null } ] }"#),
            (#"[1e400, -0, 0.10]"#, #"[10E399,0,1e-1]"#),
            (#""\ud800x""#, #""\uD800\u0078""#),
        ]
        for (left, right) in pairs {
            let (first, second) = (try text(left), try text(right))
            let hashes = [first, second].map { text in
                text.withReader { reader, root in
                    var scratch = JSONTextReader.Scratch()
                    return reader.hash(root, &scratch)
                }
            }
            #expect(hashes[0] == hashes[1], "\(left)")
            #expect(StateDiff(from: first, to: second).isEmpty, "\(left)")
        }
        #expect(!StateDiff(from: try text(#""\ud800""#), to: try text(#""\ufffd""#)).isEmpty)
        #expect(!StateDiff(from: try text(#"[1,2]"#), to: try text(#"[2,1]"#)).isEmpty)
    }

    @Test func aLargeValuePrintsInPiecesAsAWhole() throws {
        let value = JSONValue.object([
            "items": .array((0..<20_000).map { .object(["id": .number(String($0)), "name": .string("item \($0) é")]) })
        ])
        let text = JSONText(value)
        var pieces: [Int] = []
        var streamed: [UInt8] = []
        JSONPrinter.pretty(text, terminalSafe: true) { piece in
            pieces.append(piece.count)
            streamed.append(contentsOf: piece)
        }
        #expect(pieces.count > 2 && pieces.dropLast().allSatisfy { $0 >= 1 << 16 && $0 < (1 << 16) + 4096 })
        #expect(String(decoding: streamed, as: UTF8.self) == JSONPrinter.pretty(value, terminalSafe: true))
    }

    @Test func pathsResolveInTextsAsInValues() throws {
        let value = try JSONParser.parse(#"{"S":{"lines":[{"q":1},{"q":2,"q":3}],"odd key":"x","\ud800":true}}"#)
        let text = JSONText(value)
        for path in ["S.lines[1].q", "S.lines.1.q", "S.lines", #"S["odd key"]"#, "S.missing", "S.lines[9]", "."] {
            let statePath = try StatePath(parsing: path)
            let found = statePath.resolve(in: text).map { JSONPrinter.compact($0) }
            #expect(found == statePath.resolve(in: value).map { JSONPrinter.compact($0) }, "\(path)")
        }
        let lone = StatePath([.key("S"), .key(try JSONParser.parse(#""\ud800""#).stringValue ?? "")])
        #expect(lone.resolve(in: text)?.value == .bool(true))
    }
}
