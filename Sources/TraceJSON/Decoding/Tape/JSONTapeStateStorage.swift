/// Owns the memory of a decoder's `JSONTapeState`: allocated once with the decoder, freed when
/// the decoder goes. It cannot be copied, so the state is freed exactly once.
///
/// The state sits behind a pointer rather than in the decoder's stored properties so that the
/// decoder and its containers reach it with plain loads (see `JSONBuffer`).
struct JSONTapeStateStorage: ~Copyable {
    let pointer: UnsafeMutablePointer<JSONTapeState>

    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: JSONTapeState())
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}
