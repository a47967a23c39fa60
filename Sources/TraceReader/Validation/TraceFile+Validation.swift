extension TraceFile {
    /// Validates the trace as it was opened, without opening its path again: the file through
    /// the descriptor this trace holds (as it is now), or the bytes read from a pipe, which
    /// cannot be read twice. What `validator.validate(file:)` would say of the same bytes.
    ///
    /// - Throws: `ValidationFileError` when the file can no longer be read.
    public func validate(with validator: TraceValidator = TraceValidator()) throws(ValidationFileError)
        -> ValidationReport
    {
        switch source.storage {
        case .file(let input): return try validator.validate(input)
        case .memory(let bytes): return validator.validate(bytes: bytes, file: path)
        }
    }
}
