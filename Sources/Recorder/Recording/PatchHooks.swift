/// What a recorder that writes patches (`TraceRecorder.Patches.automatic()`) does at its events,
/// as functions that only `Patches.automatic()` makes: an app that records whole states links
/// no code behind them (the minimal app's size, `.ci/check-app-size`), where a method called by
/// the recorder, a public property or a protocol conformance would bring it all. Called under the recorder's lock, with the store's
/// bookkeeping (`PatchedStates`) that they share.
struct PatchHooks {
    /// Appends a transition's `"patch":…` or `"state":…` (see `TraceRecorder+Patches`).
    let transition: (TraceRecorder, any Encodable, _ store: String, _ caseName: String?, inout RecorderState) -> Void
    /// A whole state was written at `range` of the line (a register, a restore): the store's
    /// next patch starts from it.
    let wholeState: (TraceRecorder, any Encodable, _ store: String, _ range: Range<Int>, inout RecorderState) -> Void
    /// The event just built is in the file: what it changed counts.
    let committed: () -> Void
    /// A store ended; `others`: live stores of the same name remain.
    let ended: (_ store: String, _ others: Bool) -> Void
    /// A new file of a rolling trace registers `store`, whose state starts at `stateStart` of
    /// the line: appends it whole when the rollover kept none (its last event carried a patch),
    /// and counts it as the store's last whole state.
    let reopened: (_ store: String, _ stateStart: Int, inout RecorderState) -> Void

    static func make(smallestState: Int) -> PatchHooks {
        let states = PatchedStates(smallestState: smallestState)
        return PatchHooks(
            transition: { recorder, value, store, caseName, state in
                recorder.appendPatchOrState(value, store: store, caseName: caseName, states: states, in: &state)
            },
            wholeState: { recorder, value, store, range, state in
                recorder.rememberWholeState(value, store: store, range: range, states: states, in: &state)
            },
            committed: { states.commit() },
            ended: { store, others in states.forget(store, others: others) },
            reopened: { store, stateStart, state in
                let output = state.encoder.output
                if output.count == stateStart {
                    // Its last event carried a patch: its state, in full.
                    guard let last = states.stores[store]?.last, (try? state.encoder.appendWhole(last)) != nil else {
                        output.append("null")
                        states.forget(store, others: true)
                        return
                    }
                }
                states.restart(store, wholeBytes: output.count - stateStart)
            })
    }
}
