extension TraceRecorder {
    /// Whether a transition records the store's whole state or what the action changed.
    ///
    /// The choice is made when the recorder starts, because the trace's header says which version
    /// of the format follows (shared/TRACE_FORMAT.md, "Version 2: patches"): version 1 is read by
    /// every reader, version 2 only by readers that apply patches. See "Big states" in
    /// <doc:RecordingAStore> for what each costs.
    public struct Patches: Sendable {
        /// Makes the recorder's version 2 work; nil for version 1.
        let makeHooks: (@Sendable () -> PatchHooks)?

        /// Every transition carries the store's whole `state`: a version 1 trace. The default:
        /// it is what every reader reads, and for states under a few kilobytes it costs about
        /// what finding the change costs.
        public static var never: Patches { Patches(makeHooks: nil) }

        /// A version 2 trace: a transition carries a `patch` (RFC 6902) from the store's state
        /// before it, found without encoding the parts of the state that did not change, and
        /// the whole `state` again when that patch would make the patches since the store's
        /// last whole state more bytes than that state, or more than 1,024 of them. For stores
        /// whose states are large: an action that changes one item of a list of thousands
        /// writes a few hundred bytes instead of the whole list.
        ///
        /// A function, not a property, so that an app that never calls it does not ship the code
        /// that writes patches (a public property brings its code along).
        /// - Parameter smallestState: a store whose last whole state is smaller (in bytes of
        ///   JSON) writes whole states. Below about 1.5 KB a whole state costs less time than
        ///   finding the change (README, "Performance"), so the default is 1,024; 0 writes a
        ///   patch wherever it is smaller than the state.
        public static func automatic(smallestState: Int = 1_024) -> Patches {
            Patches { PatchHooks.make(smallestState: smallestState) }
        }

        /// The trace format version the header gives.
        var version: Int { makeHooks == nil ? 1 : 2 }
    }
}
