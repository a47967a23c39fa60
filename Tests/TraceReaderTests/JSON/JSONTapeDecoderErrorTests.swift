import Foundation
import Testing

@testable import TraceJSON

/// Errors from decoding bytes are `DecodingError`s of the same kind and with the same coding
/// path as `JSONDecoder`'s, so that a message can point at the value at fault.
@Suite struct JSONTapeDecoderErrorTests {
    struct Line: Codable, Equatable {
        var sku: String
        var quantity: Int
        var note: String?
    }

    enum Status: Codable, Equatable {
        case editing
        case ready(total: Double)
    }

    struct Cart: Codable, Equatable {
        var lines: [Line]
        var byCode: [String: Line]
        var status: Status
        var counts: [Int: [UInt8]]
    }

    private struct Failure: Equatable, CustomStringConvertible {
        var kind: String
        var path: [String]
        var description: String { "\(kind) at \(path)" }
    }

    private func failure(_ error: any Error) -> Failure? {
        guard let error = error as? DecodingError else { return nil }
        let (kind, context): (String, DecodingError.Context) =
            switch error {
            case .typeMismatch(_, let context): ("typeMismatch", context)
            case .valueNotFound(_, let context): ("valueNotFound", context)
            case .keyNotFound(let key, let context): ("keyNotFound \(key.stringValue)", context)
            case .dataCorrupted(let context): ("dataCorrupted", context)
            @unknown default: ("unknown", DecodingError.Context(codingPath: [], debugDescription: ""))
            }
        return Failure(kind: kind, path: context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue })
    }

    private func failures<T: Decodable>(_ type: T.Type, _ json: String) -> (ours: Failure?, theirs: Failure?) {
        var ours: Failure?
        var theirs: Failure?
        do { _ = try JSONValueDecoder().decode(T.self, from: Array(json.utf8)) } catch { ours = failure(error) }
        do { _ = try JSONDecoder().decode(T.self, from: Data(json.utf8)) } catch { theirs = failure(error) }
        return (ours, theirs)
    }

    static let valid =
        #"{"lines":[{"sku":"a","quantity":1}],"byCode":{"x":{"sku":"b","quantity":2,"note":"n"}},"status":{"ready":{"total":5}},"counts":{"3":[1,2]}}"#

    @Test(arguments: [
        // A wrong type, deep in arrays, dictionaries and enum payloads.
        (#"{"lines":[{"sku":"a","quantity":1},{"sku":5,"quantity":1}]"#, "lines[1].sku"),
        (#"{"byCode":{"x":{"sku":"b","quantity":"2"}}"#, "byCode.x.quantity"),
        (#"{"status":{"ready":{"total":"5"}}"#, "status.ready.total"),
        (#"{"counts":{"3":[1,"2"]}"#, "counts[3][1]"),
        (#"{"lines":{}"#, "lines"),
        // Null where a value is needed.
        (#"{"lines":[{"sku":null,"quantity":1}]"#, "lines[0].sku"),
        (#"{"status":null"#, "status"),
        // Missing members.
        (#"{"lines":[{"quantity":1}]"#, "lines[0]"),
        (#"{"status":{"ready":{}}"#, "status.ready"),
        // Numbers that do not fit.
        (#"{"lines":[{"sku":"a","quantity":1.5}]"#, "lines[0].quantity"),
        (#"{"counts":{"3":[1,256]}"#, "counts[3][1]"),
        (#"{"lines":[{"sku":"a","quantity":99999999999999999999}]"#, "lines[0].quantity"),
    ])
    func errorsMatchFoundation(change: String, at path: String) throws {
        // `change` is a few members (an unterminated object) that replace those of `valid`.
        let json = try Self.patch(Self.valid, with: change)
        let (ours, theirs) = failures(Cart.self, json)
        #expect(ours != nil, "decoded \(json)")
        #expect(ours?.kind == theirs?.kind)
        #expect(ours.map { $0.path.joined(separator: ".").replacingOccurrences(of: ".[", with: "[") } == path)
        // JSONDecoder reports numbers that do not fit at the top level (an empty path); ours
        // says where they are. Every other path is the same.
        if ours?.kind != "dataCorrupted" { #expect(ours == theirs) }
    }

    /// `json` with the members named in `change` (an unterminated object) replaced.
    static func patch(_ json: String, with change: String) throws -> String {
        var members = try #require(try JSONParser.parse(json).objectValue)
        let replacement = try #require(try JSONParser.parse(change + "}").objectValue)
        for (key, value) in replacement { members.set(value, forKey: key) }
        return JSONPrinter.compact(.object(members))
    }

    @Test func enumWithUnknownOrSeveralCasesIsTypeMismatchAsInFoundation() {
        for json in [
            #"{"unknown":{}}"#, #"{"editing":{},"ready":{"total":1}}"#, "{}", #"{"ready":{"total":1},"editing":{}}"#,
        ] {
            let (ours, theirs) = failures(Status.self, json)
            #expect(ours?.kind == "typeMismatch", "\(json)")
            #expect(ours == theirs, "\(json)")
        }
    }

    @Test func unkeyedContainerAtItsEnd() {
        struct Three: Decodable {
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                for _ in 0..<3 { _ = try container.decode(Int.self) }
            }
        }
        let (ours, theirs) = failures([Three].self, "[[1,2,3],[4,5]]")
        #expect(ours == Failure(kind: "valueNotFound", path: ["[1]", "[2]"]))
        #expect(ours == theirs)
    }

    @Test func invalidJSONIsDataCorruptedWithTheParseError() {
        for json in [#"{"lines":[}"#, "[1,]", #"{"a":1 "b":2}"#, "\"\u{1}\"", "{\"a\":\"\\x\"}", "tru", "01"] {
            do {
                _ = try JSONValueDecoder().decode(JSONDecodingMirror.self, from: Array(json.utf8))
                Issue.record("decoded invalid JSON \(json.debugDescription)")
            } catch DecodingError.dataCorrupted(let context) {
                let expected: JSONParseError? = {
                    do throws(JSONParseError) {
                        _ = try JSONParser.parse(json)
                        return nil
                    } catch {
                        return error
                    }
                }()
                #expect(context.underlyingError as? JSONParseError == expected)
                #expect(context.codingPath.isEmpty)
                if let expected { #expect(context.debugDescription.contains(expected.description)) }
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
    }

    @Test func truncatedDocumentsNeverDecode() throws {
        let bytes = Array(Self.valid.utf8)
        for end in 0..<bytes.count {
            #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Cart.self, from: bytes[..<end]) }
        }
        #expect(try JSONValueDecoder().decode(Cart.self, from: bytes).lines.count == 1)
    }

    /// A type whose own nesting follows the document's, as deep as the parser allows.
    struct Deep: Decodable {
        var depth: Int
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            depth = container.isAtEnd ? 1 : try container.decode(Deep.self).depth + 1
        }
    }

    @Test func recursiveTypesAtTheNestingLimit() throws {
        let limit = JSONParser.maximumDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(try JSONValueDecoder().decode(Deep.self, from: Array(deepest.utf8)).depth == limit)
        let tooDeep = "[" + deepest + "]"
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Deep.self, from: Array(tooDeep.utf8)) }
    }
}
