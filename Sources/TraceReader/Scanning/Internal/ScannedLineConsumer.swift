import TraceJSON

/// What takes the lines of a file read by `ParallelScan`: every line in file order, with its
/// fields when it was scanned as one JSON object, or why it is not one. The validation rules
/// (`ValidationRun`) are one; `inspector stats`' counting (`TraceEventScan`) another.
///
/// `consume` is called on whichever scanning thread finds the next part in order ready, but
/// never on two threads at once, and each call sees what the calls before it wrote. (Its type
/// is used on those threads: `SendableMetatype`; its values need not be `Sendable`.)
protocol ScannedLineConsumer: SendableMetatype {
    /// Takes the next `line`, its `fields` (valid during the call; empty for the header, an
    /// empty or overlong line, or when `error` is set) and its `error`; false stops the scan.
    mutating func consume(_ line: LineReader.Line, scanned fields: ScannedFields, error: JSONParseError?)
        -> Bool
}
