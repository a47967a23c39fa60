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
        Self { PatchHooks.make(smallestState: smallestState) }
    }
}

extension PatchHooks {
    /// The functions the recorder calls for version 2, sharing one store's bookkeeping.
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
                let encoder = state.encoder
                if encoder.output.count == stateStart {
                    // Its last event carried a patch: its state, in full.
                    guard let last = states.stores[store]?.last,
                        (try? PatchWriter.appendWhole(last, encoder: encoder)) != nil
                    else {
                        encoder.output.append("null")
                        states.forget(store, others: true)
                        return
                    }
                }
                states.restart(store, wholeBytes: encoder.output.count - stateStart)
            })
    }
}
