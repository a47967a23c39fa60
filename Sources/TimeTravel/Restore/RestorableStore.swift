import Recorder
import TraceJSON

/// A store that time travel can set to a recorded state: its name in the trace, and how to
/// decode its state type and set it. A trace holds only names and JSON, so the app lists its
/// stores once, in a ``Restorer``.
///
/// ```swift
/// let restorer = Restorer([
///     RestorableStore(catalog),                       // a Store: decoded and set as it is
///     RestorableStore(inventory.recording) { state in  // a model recorded through StoreRecording
///         MainActor.assumeIsolated { inventory.stock = state.stock }  // its own properties
///     },
/// ])
/// ```
///
/// The TimeTravel catalog's "Restoring an @Observable model" has a whole model.
public struct RestorableStore: Sendable {
    /// The store's name in the trace.
    public let name: String
    /// The file the store's recorder writes, by device and inode, when it writes one
    /// (`TraceRecorder.traceFileIdentity`): the trace a `ControlChannel` serves.
    let traceFileIdentity: @Sendable () -> (device: UInt64, inode: UInt64)?
    /// Decodes the store's recorded state (after `RedactedValues`), and gives what sets it.
    let prepare: @Sendable (JSONValue, RestoreSettings) throws(RestoreError) -> PreparedRestore

    /// A ``Store``: its state is decoded as `State` and set under the store's lock, with a
    /// `restore` event; then its observers and subscribers are told, with
    /// `ActionCause.current.isRestore` true, and the actions they send are dropped.
    public init<State: Codable & Equatable & Sendable>(_ store: Store<State>) {
        let name = store.name
        self.name = name
        traceFileIdentity = { store.traceFileIdentity }
        prepare = { recorded, settings throws(RestoreError) in
            let (state, kept) = try StateDecoding.decode(
                State.self, store: name, recorded: recorded, live: { store.state }, settings: settings)
            return PreparedRestore(kept: kept) {
                store.restore(to: state, step: settings.step, trace: settings.trace)
            }
        }
    }

    /// A store recorded through a ``StoreRecording`` (an `@Observable` model, a reducer): the
    /// recording takes the decoded state (with a `restore` event), and `apply` sets the store's
    /// own properties to it once every store of the restore has its state, with
    /// `ActionCause.current.isRestore` true. It is not called when the state was already that
    /// one.
    ///
    /// `apply` runs where the restore runs: on the thread that calls `Restorer.restore`, which
    /// for a ``ControlChannel`` is where its `perform` puts the work (the app's main thread, for
    /// a model that lives there). A `@MainActor` model (a SwiftUI `@Observable` one) sets its
    /// properties in `MainActor.assumeIsolated { … }`, with the channel's `perform` putting
    /// restores on the main thread.
    public init<State: Codable & Equatable & Sendable>(
        _ recording: StoreRecording<State>, apply: @escaping @Sendable (State) -> Void
    ) {
        let name = recording.name
        self.name = name
        traceFileIdentity = { recording.traceFileIdentity }
        prepare = { recorded, settings throws(RestoreError) in
            let (state, kept) = try StateDecoding.decode(
                State.self, store: name, recorded: recorded, live: { recording.state }, settings: settings)
            return PreparedRestore(kept: kept) {
                guard recording.restore(to: state, step: settings.step, trace: settings.trace) else { return nil }
                return { apply(state) }
            }
        }
    }
}

/// What every store of one restore is restored with.
struct RestoreSettings: Sendable {
    /// The step of the trace.
    var step: Int
    /// The trace's file name, for the `restore` events.
    var trace: String
    var redactedValues: RedactedValuePolicy
}

/// One store's decoded state, ready to be set.
struct PreparedRestore: Sendable {
    /// The paths whose live value is kept (redacted in the trace), within the store's state.
    var kept: [StatePath]
    /// Sets the store's state and writes its `restore` event; returns what tells its observers
    /// and subscribers, nil when the state did not change.
    var apply: @Sendable () -> (@Sendable () -> Void)?
}
