import Recorder

extension TraceRecorder.Patches {
    /// A version 2 trace: a transition carries a `patch` (RFC 6902) from the store's state
    /// before it, found without encoding the parts of the state that did not change, and the
    /// whole `state` again when that patch would make the patches since the store's last whole
    /// state more bytes than that state, or more than 1,024 of them. For stores whose states are
    /// large: an action that changes one item of a list of thousands writes a few hundred bytes
    /// instead of the whole list.
    ///
    /// The header says version 2 from the start, since it is written before any action.
    /// - Parameter smallestState: a store whose last whole state is smaller (in bytes of JSON)
    ///   writes whole states. Below about 1 KB a whole state costs less time than finding the
    ///   change (README, "Performance"), so the default is 1,024; 0 writes a patch wherever it is
    ///   smaller than the state.
    public static func automatic(smallestState: Int = 1_024) -> Self {
        Self { PatchedStates(smallestState: smallestState) }
    }
}
