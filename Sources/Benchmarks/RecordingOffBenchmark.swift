import Recorder

/// Recording off, as in a shipping build (`recorder: nil`): what an action costs on a `Store`
/// and through a `StoreRecording` that record nothing, against the plain mutation of a property
/// that the app would make without Rewind. What is left is the store's own work: its lock, the
/// copy and `==` that say whether the state changed (observers and subscribers are told only
/// then), and its checks. An app's stores are subclasses whose command methods call `send`
/// without a name (named after the method, from `#function`): that is measured too.
enum RecordingOffBenchmark {
    /// The app without Rewind: a model whose state is a property, changed in place.
    final class PlainModel {
        var state: RecordingBenchmark.ShopState

        init(_ state: RecordingBenchmark.ShopState) { self.state = state }

        @inline(never) func bump() { state.version &+= 1 }
    }

    /// An app's store: a subclass whose command sends without a name, so the action is named
    /// after the method (`#function`, "bump()"), as `CatalogStore.toLoading()` in the README.
    final class ShopStore: Store<RecordingBenchmark.ShopState>, @unchecked Sendable {
        @inline(never) func bump() { send { $0.version &+= 1 } }
    }

    static func run(into table: inout ResultTable) throws {
        let initial = RecordingBenchmark.state(items: 3)
        print("Recording off (recorder: nil), ~500 B state")
        let operations = 200_000
        let plain = PlainModel(initial)
        let store = Store(initialState: initial, name: "ShopStore", recorder: nil)
        let observed = Store(initialState: initial, name: "ShopStore", recorder: nil)
        _ = observed.state  // read once, as a view reads it: each change tells the registrar
        let recording = StoreRecording(name: "ShopStore", initialState: initial, recorder: nil)
        let subclass = ShopStore(initialState: initial, recorder: nil)
        var own = initial
        let measured = try Measurement.interleaved([
            (operations, { for _ in 0..<operations { plain.bump() } }),
            (operations, { for _ in 0..<operations { store.send("bump") { $0.version &+= 1 } } }),
            (
                operations,
                {
                    for _ in 0..<operations {
                        own.version &+= 1
                        recording.record("bump", state: own)
                    }
                }
            ),
            (operations, { for _ in 0..<operations { observed.send("bump") { $0.version &+= 1 } } }),
            (operations, { for _ in 0..<operations { subclass.bump() } }),
        ])
        // An app has subscribers: once one has been told of a change, an action may be sent
        // from inside one, so each action looks for the cause that a subscriber binds.
        let source = Store(initialState: 0, name: "Source", recorder: nil)
        let token = source.subscribe { _ in }
        source.send("bump") { $0 += 1 }
        let afterSubscriber = try Measurement.interleaved([
            (operations, { for _ in 0..<operations { plain.bump() } }),
            (operations, { for _ in 0..<operations { store.send("bump") { $0.version &+= 1 } } }),
        ])
        _ = token
        let (mutation, send, record, observedSend) = (measured[0], measured[1], measured[2], measured[3])
        let command = measured[4]
        let baseline = "plain mutation \(formatSeconds(mutation.median))"
        table.add(
            "recording off: Store.send, no recorder", figure: formatSeconds(send.median), baseline: baseline,
            ratio: formatRatio(send.median / mutation.median), target: "≤ 60 ns", met: send.median <= 60e-9)
        table.add(
            "recording off: StoreRecording.record, no recorder", figure: formatSeconds(record.median),
            baseline: baseline, ratio: formatRatio(record.median / mutation.median), target: "≤ 60 ns",
            met: record.median <= 60e-9)
        table.add(
            "… a store subclass's command method, send { … } without a name (#function), no recorder",
            figure: formatSeconds(command.median), baseline: baseline,
            ratio: formatRatio(command.median / mutation.median), target: "≤ 60 ns", met: command.median <= 60e-9)
        table.add(
            "… Store.send, no recorder, once any subscriber in the process was told of a change",
            figure: formatSeconds(afterSubscriber[1].median),
            baseline: "plain mutation \(formatSeconds(afterSubscriber[0].median))",
            ratio: formatRatio(afterSubscriber[1].median / afterSubscriber[0].median), target: "≤ 60 ns",
            met: afterSubscriber[1].median <= 60e-9)
        table.add(
            "… Store.send, no recorder, on a store whose state was read (observed)",
            figure: formatSeconds(observedSend.median), baseline: baseline,
            ratio: formatRatio(observedSend.median / mutation.median), target: "(for scale)", met: nil)
    }
}
