/// Where a recorder's lines go. The file sink is the default; `MemorySink` serves tests.
///
/// The recorder calls a sink under its own lock, one line at a time, in `seq` order, so a sink
/// needs no locking of its own for writes.
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
