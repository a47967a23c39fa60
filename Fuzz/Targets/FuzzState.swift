// libFuzzer entry point for working with states: `StateDiff` (of values and of `JSONText`s),
// `JSONPatch`, `StateDiffPrinter`, `StatePath` and `JSONValueDecoder`. Built and run by .ci/fuzz (see Fuzz/README.md); not part
// of the Swift package.
//
// The input is two JSON documents separated by the first NUL byte (or, without one, split in
// the middle). Beyond "no crash, no hang, no unbounded memory":
// - the patch `JSONPatch.make` writes from the first to the second applies to the first and
//   gives a value equivalent to the second;
// - the second applied as a patch to the first either fails with a message or gives a value;
// - the diff of the two documents' texts, as written, is the diff of their values: the same
//   changes (as printed), the same folded text, and `JSONPatch.text` is the printed
//   `JSONPatch.make`; a path resolves to the same value in a text as in its value;
// - a path `StatePath(parsing:)` reads prints as text it reads back to the same path;
// - `JSONValueDecoder` decodes a nested Codable type or throws; it never traps.

import Recorder
import TraceJSON
import TraceQueries

#if canImport(Glibc)
    import Glibc
#endif

/// Reports a broken invariant and stops the fuzzer with a crash it records.
func violated(_ message: String) -> Never {
    let line = "FuzzState: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    abort()
}

/// A Codable shape with the usual kinds of members, for `JSONValueDecoder`.
struct Shape: Codable {
    enum Kind: String, Codable { case idle, loading, loaded }
    var name: String
    var count: Int?
    var ratio: Double?
    var flags: [Bool]
    var kind: Kind?
    var children: [Shape]?
    var table: [String: Int8]?
    var small: UInt8?
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    let cut = bytes.firstIndex(of: 0) ?? bytes.count / 2
    let first = Array(bytes[..<cut])
    let second = Array(bytes[min(bytes.count, cut + (cut < bytes.count && bytes[cut] == 0 ? 1 : 0))...])

    _ = try? JSONValueDecoder().decode(Shape.self, from: bytes)
    _ = try? JSONValueDecoder().decode([Shape].self, from: first)

    let path = String(decoding: first, as: UTF8.self)
    if let parsedPath = try? StatePath(parsing: path) {
        do {
            let again = try StatePath(parsing: parsedPath.description)
            if again != parsedPath { violated("path \(parsedPath) reads back as \(again)") }
        } catch {
            violated("path \(parsedPath.description) does not read back: \(error)")
        }
        _ = parsedPath.jsonPointer
    }

    guard let before = try? JSONParser.parse(first), let after = try? JSONParser.parse(second) else { return 0 }
    if let parsedPath = try? StatePath(parsing: path) { _ = parsedPath.resolve(in: after) }
    let diff = StateDiff(from: before, to: after)
    if let beforeText = try? JSONText(validating: first), let afterText = try? JSONText(validating: second) {
        let textDiff = StateDiff(from: beforeText, to: afterText)
        // (Compared as printed: a change's values hold a repeated name as their input did.)
        let printer = StateDiffPrinter(width: 10_000)
        if textDiff.changes.map(printer.line) != diff.changes.map(printer.line) {
            violated("the texts diff otherwise than their values")
        }
        if StateDiffPrinter(width: 50).text(textDiff) != StateDiffPrinter(width: 50).text(diff) {
            violated("the texts' diff prints otherwise than their values'")
        }
        if JSONPatch.text(textDiff) != JSONPrinter.compact(JSONPatch.make(diff)) {
            violated("the written patch is not the printed one")
        }
        if let parsedPath = try? StatePath(parsing: path),
            parsedPath.resolve(in: afterText).map({ JSONPrinter.compact($0) })
                != parsedPath.resolve(in: after).map({ JSONPrinter.compact($0) })
        {
            violated("a path resolves otherwise in a text than in its value")
        }
    } else {
        violated("JSONText refused what the parser read")
    }
    if diff.isEmpty != before.isEquivalent(to: after) {
        violated("an empty diff between values that differ, or the reverse")
    }
    _ = StateDiffPrinter(width: 40).text(diff)
    _ = StateDiffPrinter(width: 1).paths(diff)
    let patch = JSONPatch.make(diff)
    do {
        let patched = try JSONPatch.apply(patch, to: before)
        if !patched.isEquivalent(to: after) { violated("the made patch does not give the second value") }
    } catch {
        violated("the made patch does not apply: \(error)")
    }
    _ = try? JSONPatch.apply(after, to: before)
    return 0
}
