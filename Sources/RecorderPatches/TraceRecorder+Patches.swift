import Recorder

// What a recorder that writes patches does at a transition and after a whole state (version 2,
// `TraceRecorder.Patches.automatic()`), reached only through `PatchedStates`, the recorder's `PatchRecording`.

extension TraceRecorder {
    /// Appends `"patch":` and the patch from the store's last state, when the format's rule
    /// allows one and it fits (see `PatchedStates`); otherwise `"state":` and the whole state.
    func appendPatchOrState(
        _ value: any Encodable, store: String, caseName: String?, states: PatchedStates,
        in state: inout RecorderState
    ) {
        let encoder = state.encoder
        let out = encoder.output
        let budget = state.liveStores[store] == 1 ? states.budget(for: store) : nil
        let shallow = budget == nil ? nil : try? ShallowState.of(value, encoder: encoder)
        if let shallow, let (last, limit) = budget {
            let mark = out.count
            out.append("\"patch\":")
            if let size = try? PatchWriter.append(
                from: last, to: shallow, limit: limit, masks: states.masks, encoder: encoder)
            {
                states.rememberPatch(store: store, state: shallow, size: size)
                state.rollover?.rememberPatched(store: store, caseName: caseName)
                return
            }
            encoder.reset(to: mark)
        }
        out.append("\"state\":")
        let range = appendEncoded(value, what: "the state of \(store)", in: &state)
        state.rollover?.remember(store: store, caseName: caseName, state: out.bytes, range: range)
        rememberWholeState(
            value, store: store, range: range, shallow: budget == nil ? nil : .some(shallow), states: states,
            in: &state)
    }

    /// Remembers the whole state just written at `range` of the line, from which the store's
    /// next patch starts: `shallow`, the state encoded for patches when that was done already
    /// (nil inside when it failed), or encoded now when the state is large enough for patches.
    func rememberWholeState(
        _ value: any Encodable, store: String, range: Range<Int>, shallow: ShallowState?? = nil,
        states: PatchedStates, in state: inout RecorderState
    ) {
        let patched = range.count >= states.smallestState
        var last = shallow ?? (patched ? try? ShallowState.of(value, encoder: state.encoder) : nil)
        // A state that failed to encode was written as null: the next transition starts over.
        let written = state.encoder.output.bytes
        if range.count == 4 && written[range.lowerBound] == UInt8(ascii: "n") && last?.text != Array("null".utf8) {
            last = nil
        }
        states.rememberWhole(store: store, state: last, size: range.count)
    }
}
