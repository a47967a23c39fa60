/// What a recorder that writes patches (`TraceRecorder.Patches.automatic()`, in the
/// RecorderPatches module) does at its events, as functions that module makes: the code that
/// finds and writes patches lives there, so that an app that records whole states does not link
/// it (the minimal app's size, `.ci/check-app-size`: a module's code is linked whole). Called
/// under the recorder's lock.
package struct PatchHooks {
    /// Appends a transition's `"patch":…` or `"state":…` (see `TraceRecorder+Patches`).
    package let transition:
        (TraceRecorder, any Encodable, _ store: String, _ caseName: String?, inout RecorderState) -> Void
    /// A whole state was written at `range` of the line (a register, a restore): the store's
    /// next patch starts from it.
    package let wholeState:
        (TraceRecorder, any Encodable, _ store: String, _ range: Range<Int>, inout RecorderState) -> Void
    /// The event just built is in the file: what it changed counts.
    package let committed: () -> Void
    /// A store ended; `others`: live stores of the same name remain.
    package let ended: (_ store: String, _ others: Bool) -> Void
    /// A new file of a rolling trace registers `store`, whose state starts at `stateStart` of
    /// the line: appends it whole when the rollover kept none (its last event carried a patch),
    /// and counts it as the store's last whole state.
    package let reopened: (_ store: String, _ stateStart: Int, inout RecorderState) -> Void

    package init(
        transition: @escaping (TraceRecorder, any Encodable, String, String?, inout RecorderState) -> Void,
        wholeState: @escaping (TraceRecorder, any Encodable, String, Range<Int>, inout RecorderState) -> Void,
        committed: @escaping () -> Void, ended: @escaping (String, Bool) -> Void,
        reopened: @escaping (String, Int, inout RecorderState) -> Void
    ) {
        self.transition = transition
        self.wholeState = wholeState
        self.committed = committed
        self.ended = ended
        self.reopened = reopened
    }
}
