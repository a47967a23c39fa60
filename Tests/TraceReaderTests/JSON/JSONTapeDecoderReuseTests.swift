import Foundation
import Testing

@testable import TraceJSON

/// A `JSONTapeDecoder` serves one document after another: it reuses its buffers, and gives
/// back memory a large document needed.
@Suite struct JSONTapeDecoderReuseTests {
    private func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], with decoder: JSONTapeDecoder) throws -> T {
        try bytes.withUnsafeBytes { try decoder.decode(T.self, from: $0, userInfo: [:]) }
    }

    @Test func containerSlotsAreDroppedWithEachDocument() throws {
        let decoder = JSONTapeDecoder()
        let states = [3, 0, 20].map { JSONTapeDecoderTests.sampleState(items: $0) }
        let documents = try states.map { [UInt8](try JSONEncoder().encode($0)) }
        for round in 0..<10 {
            for (state, document) in zip(states, documents) {
                #expect(try decode(JSONTapeDecoderTests.State.self, document, with: decoder) == state)
                #expect(decoder.state.pointee.slots.count == 0, "round \(round)")
            }
        }
        // A document with many objects needs many slots, and gives their memory back.
        let many = [UInt8](("[" + Array(repeating: #"{"value":1}"#, count: 5_000).joined(separator: ",") + "]").utf8)
        struct One: Decodable { var value: Int }
        #expect(try decode([One].self, many, with: decoder).count == 5_000)
        #expect(decoder.state.pointee.slots.count == 0)
        #expect(decoder.state.pointee.slots.capacity <= 1024)
    }

    @Test func largeDocumentsGiveTheirMemoryBack() throws {
        let decoder = JSONTapeDecoder()
        let large = [UInt8](
            ("[" + Array(repeating: #"{"a":[1,2,3],"b":"x"}"#, count: 50_000).joined(separator: ",") + "]").utf8)
        struct Small: Decodable {
            var a: [Int]
            var b: String
        }
        let decoded = try decode([Small].self, large, with: decoder)
        #expect(decoded.count == 50_000 && decoded.last?.b == "x")
        #expect(decoder.state.pointee.tape.capacity <= 1 << 14)
        #expect(decoder.state.pointee.tape.count == 0)
        // And it still decodes afterwards.
        #expect(try decode([Int].self, Array("[4,5]".utf8), with: decoder) == [4, 5])
    }

    @Test func aFailedDecodeLeavesTheDecoderUsable() throws {
        let decoder = JSONTapeDecoder()
        #expect(throws: DecodingError.self) {
            try decode([JSONTapeDecoderTests.Item].self, Array(#"[{"id":"x"}]"#.utf8), with: decoder)
        }
        #expect(throws: DecodingError.self) { try decode([Int].self, Array("[1,".utf8), with: decoder) }
        let item = JSONTapeDecoderTests.Item(id: 1, name: "n", price: 2, tags: ["t"], note: nil)
        #expect(
            try decode([JSONTapeDecoderTests.Item].self, [UInt8](try JSONEncoder().encode([item])), with: decoder) == [
                item
            ])
        #expect(decoder.state.pointee.nodes.count == 0)
    }
}
