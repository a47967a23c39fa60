/// A sink whose `write` takes several whole lines at once, in `seq` order, so that a recorder
/// writes the lines of concurrent actions together (see "Writing in groups" in
/// `TraceRecorder`). `FileSink` and `MemorySink` are; any other sink gets one line a call, as
/// `TraceSink` promises. Writes still come one at a time, never at once from two threads.
package protocol LineGroupSink: TraceSink {}

extension FileSink: LineGroupSink {}
extension MemorySink: LineGroupSink {}
