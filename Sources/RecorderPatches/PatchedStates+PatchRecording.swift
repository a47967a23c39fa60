import Recorder

/// The recorder's version 2 work at each event, on the stores' bookkeeping.
extension PatchedStates: PatchRecording {
    func transition(
        _ recorder: TraceRecorder, _ value: any Encodable, store: String, caseName: String?,
        in state: inout RecorderState
    ) {
        recorder.appendPatchOrState(value, store: store, caseName: caseName, states: self, in: &state)
    }

    func wholeState(
        _ recorder: TraceRecorder, _ value: any Encodable, store: String, range: Range<Int>,
        in state: inout RecorderState
    ) {
        recorder.rememberWholeState(value, store: store, range: range, states: self, in: &state)
    }

    func committed() { commit() }

    func ended(_ store: String, others: Bool) { forget(store, others: others) }

    func reopened(_ store: String, stateStart: Int, in state: inout RecorderState) {
        let encoder = state.encoder
        if encoder.output.count == stateStart {
            // Its last event carried a patch: its state, in full.
            guard let last = stores[store]?.last, (try? PatchWriter.appendWhole(last, encoder: encoder)) != nil else {
                encoder.output.append("null")
                forget(store, others: true)
                return
            }
        }
        restart(store, wholeBytes: encoder.output.count - stateStart)
    }
}
