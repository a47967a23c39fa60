import Foundation
import Testing

@testable import TraceJSON

/// Keyed containers of the tape decoder keep standing for their own object however long they
/// live: while the conformance that holds one decodes children with containers of the same or
/// other key types, at any depth, and after the `init(from:)` that made it has returned. Each
/// case is checked against Foundation's `JSONDecoder` on the same bytes.
@Suite struct JSONTapeContainerLifetimeTests {

    /// A chain of objects whose key types alternate with depth. Each level holds its container
    /// and a nested container of the other key type while the next level decodes (with the same
    /// two key types), and reads both again afterwards.
    struct Layer: Decodable, Equatable {
        var trail: [String]

        enum Even: String, CodingKey { case name, side, next, after }
        enum Odd: String, CodingKey { case label, side, next, after }

        init(from decoder: any Decoder) throws {
            if let even = try? decoder.container(keyedBy: Even.self), even.contains(.name) {
                trail = try Self.read(even, name: .name, side: .side, next: .next, after: .after, nested: Odd.label)
            } else {
                let odd = try decoder.container(keyedBy: Odd.self)
                trail = try Self.read(odd, name: .label, side: .side, next: .next, after: .after, nested: Even.name)
            }
        }

        private static func read<Own: CodingKey, Other: CodingKey>(
            _ container: KeyedDecodingContainer<Own>, name: Own, side: Own, next: Own, after: Own, nested: Other
        ) throws -> [String] {
            var trail = [try container.decode(String.self, forKey: name)]
            let sideContainer = try container.nestedContainer(keyedBy: Other.self, forKey: side)
            trail.append(try sideContainer.decode(String.self, forKey: nested))
            if let deeper = try container.decodeIfPresent(Layer.self, forKey: next) { trail += deeper.trail }
            // Both containers were alive while the deeper levels made theirs.
            trail.append(try sideContainer.decode(String.self, forKey: nested))
            trail.append(try container.decode(String.self, forKey: after))
            trail.append(try container.decode(String.self, forKey: name))
            return trail
        }
    }

    /// The JSON of `depth` layers, starting with an even one.
    private func layers(_ depth: Int, from level: Int = 0) -> String {
        let even = level % 2 == 0
        let (name, other) = even ? ("name", "label") : ("label", "name")
        let next = level + 1 < depth ? #","next":"# + layers(depth, from: level + 1) : ""
        return #"{"\#(name)":"n\#(level)","side":{"\#(other)":"s\#(level)"}\#(next),"after":"a\#(level)"}"#
    }

    @Test(arguments: [1, 2, 7, 60])
    func containersOfBothKeyTypesStayTheirsAtEveryDepth(depth: Int) throws {
        try decodesLikeFoundation(Layer.self, layers(depth))
        // Side by side, so that a level's containers are made again and again at one depth.
        try decodesLikeFoundation([Layer].self, "[" + (1...6).map { layers($0) }.joined(separator: ",") + "]")
    }

    /// Keeps its container after `init(from:)` returns.
    struct Kept: Decodable {
        enum Keys: String, CodingKey { case value, extra }
        let container: KeyedDecodingContainer<Keys>
        init(from decoder: any Decoder) throws { container = try decoder.container(keyedBy: Keys.self) }
    }

    /// Decodes every element as `Kept`, then reads each kept container, last first.
    struct ReadLater: Decodable, Equatable {
        var values: [Int]
        var keys: [[String]]

        init(from decoder: any Decoder) throws {
            let kept = try [Kept](from: decoder)
            values = try kept.reversed().map { try $0.container.decode(Int.self, forKey: .value) }
            keys = kept.map { $0.container.allKeys.map(\.stringValue).sorted() }  // (JSONDecoder: any order)
        }
    }

    @Test func containersKeptAfterTheirInitializerReturnsStillReadTheirObject() throws {
        let json =
            "["
            + (0..<40).map { $0 % 3 == 0 ? #"{"value":\#($0),"extra":1}"# : #"{"value":\#($0)}"# }
            .joined(separator: ",") + "]"
        try decodesLikeFoundation(ReadLater.self, json)
        // Twice in one document, and again in the next: nothing is carried over.
        try decodesLikeFoundation([ReadLater].self, "[" + json + "," + json + "]")
        try decodesLikeFoundation(ReadLater.self, json)
    }
}
