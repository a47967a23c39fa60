/// What a recorder that writes patches (`TraceRecorder.Patches.automatic()`, in the
/// RecorderPatches module) does at its events. The code that finds and writes patches conforms
/// to it there, so that an app that records whole states does not link it (the minimal app's
/// size, `.ci/check-app-size`: a module's code is linked whole). Called under the recorder's
/// lock; a class, since the recorder keeps one that holds each store's last state.
package protocol PatchRecording: AnyObject {
    /// Appends a transition's `"patch":…` or `"state":…`.
    func transition(
        _ recorder: TraceRecorder, _ value: any Encodable, store: String, caseName: String?,
        in state: inout RecorderState)
    /// A whole state was written at `range` of the line (a register, a restore): the store's
    /// next patch starts from it.
    func wholeState(
        _ recorder: TraceRecorder, _ value: any Encodable, store: String, range: Range<Int>,
        in state: inout RecorderState)
    /// The event just built is in the file: what it changed counts.
    func committed()
    /// A store ended; `others`: live stores of the same name remain.
    func ended(_ store: String, others: Bool)
    /// A new file of a rolling trace registers `store`, whose state starts at `stateStart` of
    /// the line: appends it whole when the rollover kept none (its last event carried a patch),
    /// and counts it as the store's last whole state.
    func reopened(_ store: String, stateStart: Int, in state: inout RecorderState)
}
