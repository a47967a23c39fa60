import Testing

@testable import TraceJSON

/// Parser and checker against the JSONTestSuite categories: y_ accepted, n_ rejected, i_ no crash.
@Suite struct JSONConformanceTests {
    @Test(arguments: JSONConformanceCases.accepted)
    func acceptsValidJSON(_ input: JSONCase) throws {
        let value = try JSONParser.parse(input.bytes)
        input.bytes.withUnsafeBytes { buffer in
            #expect(JSONSyntax.validate(buffer) == nil)
        }
        // The skipper ends where the value ends: only whitespace may follow.
        let end = try input.bytes.withUnsafeBytes { buffer in try JSONSyntax.skipValue(in: buffer, at: 0) }
        #expect(input.bytes[end...].allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) })
        // Printing and parsing again gives the same data (a repeated name printed once, the
        // last member winning), and the same text when printed again.
        let compact = JSONPrinter.compact(value)
        #expect(try JSONParser.parse(compact).isEquivalent(to: value))
        #expect(try JSONPrinter.compact(JSONParser.parse(compact)) == compact)
        #expect(try JSONPrinter.compact(JSONParser.parse(JSONPrinter.pretty(value))) == compact)
    }

    @Test(arguments: JSONConformanceCases.rejected)
    func rejectsInvalidJSON(_ input: JSONCase) {
        let parseError: JSONParseError? = {
            do throws(JSONParseError) {
                _ = try JSONParser.parse(input.bytes)
                return nil
            } catch {
                return error
            }
        }()
        let validateError = input.bytes.withUnsafeBytes { JSONSyntax.validate($0) }
        #expect(parseError != nil, "the parser accepted \(input.name)")
        #expect(validateError != nil, "the checker accepted \(input.name)")
        // Same rules, same first problem, same message.
        #expect(parseError == validateError)
        if let parseError {
            #expect(parseError.offset >= 0 && parseError.offset <= input.bytes.count)
            #expect(parseError.line >= 1 && parseError.column >= 1)
            #expect(!parseError.message.isEmpty)
        }
    }

    @Test(arguments: JSONConformanceCases.undecided)
    func handlesImplementationDefinedInputs(_ input: JSONCase) {
        let parsed = try? JSONParser.parse(input.bytes)
        let valid = input.bytes.withUnsafeBytes { JSONSyntax.validate($0) } == nil
        #expect((parsed != nil) == valid, "the parser and the checker disagree on \(input.name)")
    }

    @Test func caseCountsCoverTheGrammar() {
        #expect(JSONConformanceCases.accepted.count >= 80)
        #expect(JSONConformanceCases.rejected.count >= 120)
        #expect(Set(JSONConformanceCases.accepted.map(\.name)).count == JSONConformanceCases.accepted.count)
        #expect(Set(JSONConformanceCases.rejected.map(\.name)).count == JSONConformanceCases.rejected.count)
    }
}
