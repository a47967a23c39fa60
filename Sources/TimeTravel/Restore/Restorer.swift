import Recorder
import TraceJSON
import TraceReader

/// The stores of an app that time travel can set, and the restore itself: every store takes its
/// state at step N of a trace, then their observers and subscribers are told.
///
/// ```swift
/// let restorer = Restorer([RestorableStore(catalog), RestorableStore(cart)])
/// let trace = try TraceFile(path: "run.jsonl")
/// let report = try restorer.restore(from: trace, atStep: 12)
/// ```
///
/// A restore is one step: the states of all the stores asked for are decoded first, and if any
/// does not decode (the app's types changed since the recording) nothing is set and the error
/// names the store, the path and the type. Then each store takes its state under its lock,
/// writing a `restore` event (its step and the trace's file name); `validate` does not judge a
/// restore as an action. Only then are observers and subscribers told, with
/// `ActionCause.current.isRestore` true, and the actions they send to a `Store` are dropped, so
/// that a restored state does not set off reactions (a restored session must not start a load).
///
/// A value the trace holds as `"<redacted>"` cannot come back: by default the store keeps its
/// live value there and the report names the path (``RedactedValuePolicy``).
public struct Restorer: Sendable {
    /// The stores, one per name, in the order given.
    public let stores: [RestorableStore]

    /// A restorer of `stores`. A name given twice keeps its first store.
    public init(_ stores: [RestorableStore]) {
        var seen: Set<String> = []
        self.stores = stores.filter { seen.insert($0.name).inserted }
    }

    /// The names of the stores, in order.
    public var storeNames: [String] { stores.map(\.name) }

    /// The trace file the stores' recorder writes, by device and inode (of the first store
    /// recorded to a `FileSink`): the only trace a `ControlChannel` on these stores serves.
    package var traceFileIdentity: (device: UInt64, inode: UInt64)? {
        for store in stores {
            if let identity = store.traceFileIdentity() { return identity }
        }
        return nil
    }

    /// Sets the stores to their states at step `step` of `trace`.
    /// - Parameters:
    ///   - trace: the trace to take the states from (the app's own, or one recorded earlier by
    ///     the same version of the app).
    ///   - step: the step, from 0 to `trace.lastStep` (step N is just after the event whose seq
    ///     is N).
    ///   - names: the stores to restore; nil for all of them.
    ///   - redactedValues: what to do with values the trace holds as `"<redacted>"`.
    /// - Returns: which stores were set, which have no state at that step (left as they are),
    ///   and which redacted values were kept.
    /// - Throws: `RestoreError`, having changed nothing.
    @discardableResult
    public func restore(
        from trace: TraceFile, atStep step: Int, stores names: [String]? = nil,
        redactedValues: RedactedValuePolicy = .keepLive
    ) throws(RestoreError) -> RestoreReport {
        guard step >= 0 && step <= trace.lastStep else {
            throw RestoreError(
                .stepOutOfRange,
                message: "step \(step) is not in \(trace.path), whose steps go from 0 to \(trace.lastStep)")
        }
        let chosen = try select(names)
        let fileName = trace.path.split(separator: "/").last.map(String.init) ?? trace.path
        let settings = RestoreSettings(step: step, trace: fileName, redactedValues: redactedValues)
        // Every state is decoded before any is set: a restore that fails changes nothing.
        var prepared: [PreparedRestore] = []
        var report = RestoreReport(step: step, trace: fileName, restored: [], absent: [], keptValues: [])
        for store in chosen {
            let recorded: JSONValue?
            do {
                recorded = try trace.readState(of: store.name, atStep: step)
            } catch {
                throw RestoreError(.unreadableTrace, store: store.name, message: error.description)
            }
            guard let recorded else {
                report.absent.append(store.name)
                continue
            }
            let ready = try store.prepare(recorded, settings)
            prepared.append(ready)
            report.restored.append(store.name)
            report.keptValues += ready.kept
        }
        let announcements = prepared.compactMap { $0.apply() }
        ActionCause.restoring.run {
            for announce in announcements { announce() }
        }
        return report
    }

    /// The stores named, in the restorer's order; all of them for nil.
    private func select(_ names: [String]?) throws(RestoreError) -> [RestorableStore] {
        guard let names else { return stores }
        let known = Set(storeNames)
        if let unknown = names.first(where: { !known.contains($0) }) {
            throw RestoreError(
                .unknownStore, store: unknown,
                message:
                    "no restorable store is named \(unknown); the restorer has \(storeNames.joined(separator: ", ")). Add it to the Restorer (RestorableStore(store))"
            )
        }
        let wanted = Set(names)
        return stores.filter { wanted.contains($0.name) }
    }
}
