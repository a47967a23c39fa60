import TraceReader

extension TraceFile {
    /// The `stack` of the event at `index`: the call stack when its action was sent, innermost
    /// frame first (shared/TRACE_FORMAT.md); nil when the event has none, for an index out of
    /// range, or a line that can no longer be read as it was indexed. Frames that are not
    /// strings are left out.
    public func stack(ofEventAt index: Int) -> [String]? {
        guard let frames = object(ofEvent: index)?["stack"]?.arrayValue else { return nil }
        return frames.compactMap(\.stringValue)
    }
}
