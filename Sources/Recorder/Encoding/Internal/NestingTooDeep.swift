/// Why a value nested too deeply is not written: a trace reader could not read its line.
///
/// A reader parses at most 1,024 levels of arrays and objects per line (TraceReader's
/// `JSONParser.maximumDepth`). A state is inside its event's object, and a version 2 patch puts
/// a value three levels deeper (the patch array, an operation, its `value`); so the recorder
/// writes values nested at most `maximumDepth` levels (1,020), and any whole state, patch or
/// arguments it writes reads back. A deeper value is written as null and reported (`onError`,
/// `encodingFailed`), instead of making a line that every reader calls malformed.
struct NestingTooDeep: Error, CustomStringConvertible {
    /// The deepest nesting of a value the recorder writes.
    static let maximumDepth = 1_020

    var description: String {
        "it is nested deeper than \(Self.maximumDepth) levels of arrays and objects, more than a trace reader reads (1,024 levels per line, the event's own included); make the type shallower, or give it an encode(to:) that writes the chain as an array"
    }
}
