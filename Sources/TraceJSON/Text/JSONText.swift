/// One JSON value kept as its UTF-8 text: checked once, indexed, and read without building a
/// `JSONValue` tree.
///
/// A `JSONValue` costs a few dozen bytes per value, however short its text: a state of 25
/// million numbers (50 MB of text) is more than a gigabyte as a tree. A `JSONText` keeps the
/// bytes and an index of 24 bytes per array or object (nothing per string, number or literal),
/// and what reads it walks the bytes: `StateDiff` compares two texts member by member and
/// element by element (arrays aligned by the elements' hashes, which the index holds), and
/// `JSONPrinter` prints one as it walks it, in pieces when asked. Get one from a trace with
/// `TraceFile.appStateText(atStep:store:)` or `stateText(of:atStep:)`, from bytes with
/// `init(validating:)`, or from a value with `init(_:)`; `value` parses it into a tree when one
/// is wanted.
///
/// The text is checked exactly as `JSONParser` checks it; the same data reads the same (a
/// repeated name's last member wins, a lone surrogate stays itself). A text is at most
/// `maximumByteCount` bytes (a trace's lines are below 1 GiB).
public struct JSONText: Sendable {
    /// The largest text: offsets in the index are 32-bit.
    public static let maximumByteCount = Int(UInt32.max)

    /// The UTF-8 bytes, as given (whitespace around the value included).
    public let bytes: [UInt8]
    /// One entry per array or object, in document order.
    let containers: [JSONTextContainer]
    /// The offset of the value's first byte.
    let start: Int

    /// Checks that `bytes` hold exactly one JSON value (with optional whitespace around it), as
    /// `JSONParser` does, and indexes it.
    /// - Throws: `JSONParseError`, as `JSONParser.parse` throws it; a text over
    ///   `maximumByteCount` bytes is refused at offset 0.
    public init(validating bytes: some Collection<UInt8>) throws(JSONParseError) {
        try self.init(checking: Array(bytes))
    }

    /// The compact JSON of `value` (see `JSONPrinter.compact`), indexed.
    public init(_ value: JSONValue) {
        let bytes = JSONPrinter.compactUTF8(value)
        do throws(JSONParseError) {
            try self.init(checking: bytes)
        } catch {
            // The printer writes only JSON; should that ever fail, the text says so.
            assertionFailure("JSONPrinter wrote invalid JSON: \(error)")
            self.init(unchecked: Array("null".utf8), containers: [], start: 0)
        }
    }

    private init(unchecked bytes: [UInt8], containers: [JSONTextContainer], start: Int) {
        self.bytes = bytes
        self.containers = containers
        self.start = start
    }

    private init(checking bytes: [UInt8]) throws(JSONParseError) {
        guard bytes.count <= JSONText.maximumByteCount else {
            throw JSONParseError(
                line: 1, column: 1, offset: 0,
                message: "the text is \(bytes.count) bytes long; a JSONText holds at most 4 GiB")
        }
        let indexed = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) -> ([JSONTextContainer], Int) in
                var scanner = JSONScanner(UnsafeRawBufferPointer(buffer))
                var indexer = JSONTextIndexer(buffer)
                try scanner.scanDocument(into: &indexer)
                scanner.position = 0
                scanner.skipWhitespace()
                return (indexer.containers, scanner.position)
            }
        }
        let (containers, start) = try indexed.get()
        self.init(unchecked: bytes, containers: containers, start: start)
    }

    /// The value, parsed into a tree.
    public var value: JSONValue {
        withReader { reader, root in reader.jsonValue(root) }
    }

    /// Calls `body` with a reader of the text and its value.
    func withReader<Result>(_ body: (JSONTextReader, JSONTextReader.Value) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { bytes in
            containers.withUnsafeBufferPointer { containers in
                let reader = JSONTextReader(bytes: bytes, containers: containers)
                let isContainer = bytes[start] == UInt8(ascii: "[") || bytes[start] == UInt8(ascii: "{")
                return body(reader, JSONTextReader.Value(start: start, container: isContainer ? 0 : -1))
            }
        }
    }
}
