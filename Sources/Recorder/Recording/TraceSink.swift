/// Where a recorder's lines go. The file sink is the default; `MemorySink` serves tests.
///
/// The recorder calls a sink one line at a time, in `seq` order, never from two threads at
/// once, so a sink needs no locking of its own for writes. (`FileSink` and `MemorySink` may be
/// given several lines in one call: see "Writing in groups" in ``TraceRecorder``.)
public protocol TraceSink: Sendable {
    /// Writes one complete line, `\n` included. When this returns, the line must have reached
    /// its destination (for a file: the operating system, in one `write(2)`), because the action
    /// that produced it returns next.
    func write(_ line: UnsafeRawBufferPointer) throws

    /// Makes sure every line written so far survives a crash of the machine, not only of the
    /// process (for a file: `fsync`). Called before a store traps on an illegal transition.
    func synchronize() throws
}

extension TraceSink {
    /// Does nothing: lines written to memory need no synchronizing.
    public func synchronize() throws {}
}
