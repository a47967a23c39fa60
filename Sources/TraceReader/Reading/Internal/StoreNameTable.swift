@_spi(RewindInternals) internal import RewindSupport
/// Store names seen while indexing, each given a small integer id, looked up by their UTF-8 bytes
/// so that indexing a line makes no `String` (a `NameTable`), with each name also kept as a
/// `String` for the index.
///
/// Ids count from 0 in the order names are first added. The last few names looked up are
/// remembered (`RecentNames`): events mostly come from a few stores in turn.
struct StoreNameTable: Sendable {
    private var table = NameTable()
    private var recent = RecentNames()
    /// The names, by id.
    private(set) var names: [String] = []

    init() {}

    /// The id of the name whose UTF-8 bytes are `name`, adding it when it is new.
    mutating func id(for name: ByteView) -> Int {
        let id = recent.intern(name, in: &table)
        // A new name (a name remembered by `recent` was added before).
        if id == names.count { names.append(name.string) }
        return id
    }

    /// The id of `name`, adding it when it is new.
    mutating func id(for name: String) -> Int {
        ByteView.withBytes(of: name) { id(for: $0) }
    }
}
