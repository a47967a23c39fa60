@_spi(RewindInternals) import RewindSupport
import TestSupport
import Testing

@testable import TraceJSON
@testable import TraceReader

@Suite struct PatchShapeSinkTests {
    /// What the one-scan check says of `patch`, and whether parsing it finds it well shaped.
    /// The check is made three ways, which must agree: on the patch alone, and by the scans that
    /// skip it in a line, in any layout (`scanGenerally`) and in the recorder's.
    private func both(_ patch: String) throws -> (scan: Bool, parse: Bool) {
        let line = Array(#"{"patch":\#(patch)}"#.utf8)
        let recorded = Array(
            #"{"type":"transition","seq":3,"elapsed":0.5,"store":"S","action":"a","changed":true,"patch":\#(patch),"source":"f"}"#
                .utf8)
        let inRecorderLayout = try ByteView.withBytes(of: recorded) { buffer in
            try #require(EventScanner.scanRecorderLayout(buffer)).patchIsWellShaped
        }
        return try ByteView.withBytes(of: line) { buffer in
            let fields = try EventScanner.scan(buffer)
            let range = try #require(fields.patchRange)
            let scan = PatchShapeSink.isWellShaped(buffer[range])
            #expect(fields.patchIsWellShaped == scan && inRecorderLayout == scan, "\(patch)")
            guard case .success? = EventLineCheck.patchOperations(in: fields, line: buffer) else {
                return (scan, false)
            }
            return (scan, true)
        }
    }

    @Test(arguments: [
        "[]", #"[{"op":"add","path":"/a","value":{"op":1,"path":[2]}}]"#,
        #"[{"path":"","op":"remove"},{"op":"move","from":"/a","path":"/b"}]"#,
        #"[{"op":1,"op":"add","path":"/a"}]"#, #"[{"op":"test","path":"/a\u0062","value":[[],{}]}]"#,
    ])
    func aWellShapedPatchIsSeenInOneScan(_ patch: String) throws {
        #expect(try both(patch) == (scan: true, parse: true))
    }

    @Test(arguments: [
        "{}", "1", #""op""#, "null", "[1]", "[[]]", #"["add"]"#, "[null]", "[{}]", #"[{"op":"add"}]"#,
        #"[{"path":"/a"}]"#, #"[{"op":"add","path":1}]"#, #"[{"op":null,"path":"/a"}]"#,
        #"[{"op":["add"],"path":"/a"}]"#, #"[{"op":"add","path":{"p":"/a"}}]"#,
        #"[{"op":"add","path":"/a","op":2}]"#, #"[{"op":"add","path":"/a"},{"op":"add"}]"#,
        #"[{"value":{"op":"add","path":"/a"}}]"#,
    ])
    func anyOtherShapeIsLeftToTheParser(_ patch: String) throws {
        #expect(try both(patch) == (scan: false, parse: false))
    }

    /// An escaped member name is not followed: the parser decides.
    @Test func anEscapedNameIsLeftToTheParser() throws {
        #expect(try both(#"[{"o\u0070":"add","path":"/a"}]"#) == (scan: false, parse: true))
    }

    /// Random operations built from the pieces above: the scan never says "well shaped" of a
    /// patch the parser refuses, and agrees with it on every patch without escapes.
    @Test func theScanAgreesWithTheParserOnRandomPatches() throws {
        var random = SeededGenerator(seed: 22)
        let values = [#""add""#, #""/a""#, "1", "null", "[]", "{}", #"{"op":"x","path":"/y"}"#, #"["/a"]"#]
        let names = ["op", "path", "value", "from"]
        for _ in 0..<2_000 {
            let operations = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                let members = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                    "\"\(names.randomElement(using: &random)!)\":\(values.randomElement(using: &random)!)"
                }
                return Int.random(in: 0..<10, using: &random) == 0
                    ? values.randomElement(using: &random)! : "{\(members.joined(separator: ","))}"
            }
            let patch = "[\(operations.joined(separator: ","))]"
            let (scan, parse) = try both(patch)
            #expect(scan == parse, "\(patch)")
        }
    }
}
