// libFuzzer entry point for the JSON layer: `JSONParser`, `JSONSyntax`, `JSONText` and
// `JSONPrinter`.
// Built and run by .ci/fuzz (see Fuzz/README.md); not part of the Swift package.
//
// Beyond "no crash, no hang, no unbounded memory", every input must satisfy:
// - `JSONParser.parse` and `JSONSyntax.validate` agree: both accept it or both reject it, and
//   when both reject it they name the same offset;
// - the generic-collection parser and the raw-buffer parser return the same value;
// - `JSONSyntax.skipValue` from offset 0 ends the value where only whitespace is left;
// - `JSONText(validating:)` accepts what the parser accepts and rejects the rest with the same
//   error, and prints (compact, pretty, terminal-safe) exactly what the parsed value prints;
// - a parsed value printed compact, pretty or terminal-safe parses back to the same data (a
//   repeated name printed once: the last member wins) and prints again the same, and the
//   terminal-safe text holds no ESC, DEL or C1 control.

import Recorder
import TraceJSON

#if canImport(Glibc)
    import Glibc
#endif

/// Reports a broken invariant and stops the fuzzer with a crash it records.
func violated(_ message: String) -> Never {
    let line = "FuzzJSON: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let buffer = UnsafeRawBufferPointer(start: data, count: size)
    let bytes = Array(buffer)

    let parsed: Result<JSONValue, JSONParseError> = Result { () throws(JSONParseError) in try JSONParser.parse(buffer) }
    let generic: Result<JSONValue, JSONParseError> = Result { () throws(JSONParseError) in try JSONParser.parse(bytes) }
    let syntaxError = JSONSyntax.validate(buffer)
    let text: Result<JSONText, JSONParseError> = Result { () throws(JSONParseError) in
        try JSONText(validating: buffer)
    }

    switch (parsed, generic) {
    case (.success(let value), .success(let other)):
        if value != other { violated("the two parsers returned different values") }
    case (.failure(let error), .failure(let other)):
        if error.offset != other.offset { violated("the two parsers failed at \(error.offset) and \(other.offset)") }
    default:
        violated("one parser accepted what the other rejected")
    }

    switch (parsed, text) {
    case (.failure(let error), .failure(let other)):
        if error != other { violated("the parser and JSONText failed differently: \(error) / \(other)") }
    case (.success(let value), .success(let text)):
        if JSONPrinter.compact(text) != JSONPrinter.compact(value) { violated("a JSONText prints another value") }
        if JSONPrinter.pretty(text, terminalSafe: true) != JSONPrinter.pretty(value, terminalSafe: true) {
            violated("a JSONText pretty-prints another value")
        }
        if !StateDiff(from: text, to: JSONText(value)).isEmpty { violated("a JSONText differs from its value") }
    default:
        violated("the parser and JSONText disagree on whether the input is JSON")
    }

    switch parsed {
    case .failure(let error):
        guard let syntaxError else { violated("the parser rejected (\(error.message)) what JSONSyntax accepts") }
        if error.offset != syntaxError.offset {
            violated("parser failed at offset \(error.offset), JSONSyntax at \(syntaxError.offset)")
        }
        if error.offset < 0 || error.offset > size || error.line < 1 || error.column < 1 {
            violated("error position out of range: line \(error.line) column \(error.column) offset \(error.offset)")
        }
        if error.message.isEmpty { violated("an error without a message") }
    case .success(let value):
        if let syntaxError { violated("JSONSyntax rejected (\(syntaxError.message)) what the parser accepts") }
        let end: Int
        do { end = try JSONSyntax.skipValue(in: buffer, at: 0) } catch {
            violated("skipValue rejected a valid document: \(error.message)")
        }
        if end < 0 || end > size { violated("skipValue returned \(end) for \(size) bytes") }
        if !buffer[end...].allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            violated("skipValue stopped at \(end), before the end of the value")
        }
        roundTrip(value, JSONPrinter.compact(value), "compact")
        roundTrip(value, JSONPrinter.pretty(value, indent: 3), "pretty")
        let safe = JSONPrinter.compact(value, terminalSafe: true)
        roundTrip(value, safe, "terminal-safe")
        if safe.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            violated("terminal-safe text holds a control character")
        }
    }
    return 0
}

/// `text` must parse back to the same data as `value` and print again as `value` prints.
func roundTrip(_ value: JSONValue, _ text: String, _ style: String) {
    do {
        let again = try JSONParser.parse(text)
        if !again.isEquivalent(to: value) { violated("\(style) printing does not parse back to the same data") }
        if JSONPrinter.compact(again) != JSONPrinter.compact(value) {
            violated("\(style) printing does not print again the same")
        }
    } catch {
        violated("\(style) printing is not valid JSON: \(error.message) in \(text.prefix(200))")
    }
}
