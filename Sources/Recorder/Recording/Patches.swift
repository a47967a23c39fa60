extension TraceRecorder {
    /// Whether a transition records the store's whole state or what the action changed.
    ///
    /// The choice is made when the recorder starts, because the trace's header says which version
    /// of the format follows (shared/TRACE_FORMAT.md, "Version 2: patches"): version 1 is read by
    /// every reader, version 2 only by readers that apply patches. See "Big states" in
    /// <doc:RecordingAStore> for what each costs.
    public struct Patches: Sendable {
        /// Makes the recorder's version 2 work; nil for version 1.
        let makeRecording: (@Sendable () -> any PatchRecording)?

        /// Every transition carries the store's whole `state`: a version 1 trace. The default:
        /// it is what every reader reads, and for states under a few kilobytes it costs about
        /// what finding the change costs. `automatic()`, for version 2, is in the RecorderPatches
        /// module (`import RecorderPatches`).
        public static var never: Patches { Patches(makeRecording: nil) }

        /// Makes a value whose `makeRecording` sets up version 2 recording: `automatic()`, in the
        /// RecorderPatches module.
        package init(makeRecording: (@Sendable () -> any PatchRecording)?) {
            self.makeRecording = makeRecording
        }

        /// The trace format version the header gives.
        var version: Int { makeRecording == nil ? 1 : 2 }
    }
}
