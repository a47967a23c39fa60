/// Owns the memory of an `EncodingContext`: its state, allocated here and freed here, in
/// `deinit`, together with everything the state owns (the output buffer, the frame stack, the
/// container cache, the type table and the memo, each of which frees its own memory in turn).
///
/// It cannot be copied, so that memory has one owner and is freed exactly once; the `context` it
/// hands out is a view, valid while this lives.
struct EncodingContextStorage: ~Copyable {
    let context: EncodingContext

    /// - Parameter remembers: copy the JSON of a part that is certainly the same as one encoded
    ///   before, instead of encoding it again (`EncodingMemo`).
    init(redaction: Redaction, remembers: Bool) {
        let state = UnsafeMutablePointer<EncodingContext.State>.allocate(capacity: 1)
        state.initialize(to: EncodingContext.State(redaction: redaction, remembers: remembers))
        context = EncodingContext(state: state)
    }

    deinit {
        context.state.deinitialize(count: 1)
        context.state.deallocate()
    }
}
