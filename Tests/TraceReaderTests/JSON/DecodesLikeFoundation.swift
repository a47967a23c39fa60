import Foundation
import Testing

@testable import TraceJSON

/// Decodes `json` with `JSONValueDecoder` and with Foundation's `JSONDecoder`; both must succeed
/// with equal values. The tape decoder's tests check themselves against Foundation with it.
func decodesLikeFoundation<T: Decodable & Equatable>(
    _ type: T.Type, _ json: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let ours = try JSONValueDecoder().decode(T.self, from: Array(json.utf8))
    let theirs = try JSONDecoder().decode(T.self, from: Data(json.utf8))
    #expect(ours == theirs, sourceLocation: sourceLocation)
}
