import Observation
@_spi(RewindInternals) internal import RewindSupport

/// The observation of one property of an object, through the Observation framework: the object
/// reports each read (`access`) and each change (`changed`).
///
/// A class of its own rather than the registrar in `Store`: called from a store's unspecialized
/// generic code, the registrar's generic functions needed the metadata of `Store<State>`, a
/// runtime lookup on every action; here the types come with the instance.
///
/// Telling the registrar of a change costs about 400 instructions (a lock and two dictionary
/// lookups keyed by the key path), a tenth of recording an action. Nothing can track a property
/// that was never read, so until the first read a change tells no one and costs one load.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class ObservedValue<Subject: Observable, Member>: @unchecked Sendable {
    // @unchecked: both properties are immutable, and the registrar is Sendable; a `KeyPath` is
    // an immutable object, not declared Sendable.
    private let registrar = ObservationRegistrar()
    private let keyPath: KeyPath<Subject, Member>
    /// Whether the property was ever read. Set once, before the first read, and never cleared.
    /// Sequentially consistent on both sides: a change that finds it unset happened before the
    /// first read took the object's lock, so that read sees the change (and a tracking it
    /// starts is told of the next one).
    private let wasRead = AtomicCell<Bool>(false)

    init(_ keyPath: KeyPath<Subject, Member>) {
        self.keyPath = keyPath
    }

    /// Reports a read of the property, so that a tracking running now is told of its changes.
    func access(_ subject: Subject) {
        if !wasRead.load(ordering: .relaxed) { wasRead.store(true, ordering: .sequentiallyConsistent) }
        registrar.access(subject, keyPath: keyPath)
    }

    /// Tells whoever tracks the property that it changed. Called after the change: the store
    /// knows that the state changed only once the action ran under its lock, and an observer
    /// told here may read the state, which it could not do inside the action.
    func changed(_ subject: Subject) {
        guard wasRead.load(ordering: .sequentiallyConsistent) else { return }
        registrar.willSet(subject, keyPath: keyPath)
        registrar.didSet(subject, keyPath: keyPath)
    }
}
