/// What a keyed container of `JSONTapeDecoder` stands for, kept by the decoder so the container
/// itself is just (decoder, slot number) and its lookups can remember where the last one ended
/// (`cursor`) although container methods cannot mutate the container.
///
/// Every keyed container gets a slot of its own, appended when the container is made and dropped
/// with the document (`JSONTapeState.reset()`): a container kept alive (a hand-written
/// `init(from:)` holding one while it decodes its children, or keeping it for later) keeps its
/// slot, so containers never see each other's state. A slot is a few integers, so a document
/// costs one per object it decodes with a keyed container, about what its tape entries cost.
struct JSONTapeKeyedSlot {
    /// Whether the members' names can be compared byte for byte with a key's UTF-8.
    enum Names: UInt8 {
        /// The builder could not rule out a repeated, escaped or non-ASCII name (see
        /// `JSONTapeEntry.namesNeedCheck`): the names are checked at the first lookup
        /// (containers that only read `allKeys` never pay for it).
        case unchecked
        /// Distinct, ASCII, without escapes: equal names have equal bytes, and the first
        /// match is the only one.
        case plain
        /// Duplicates, escapes or non-ASCII names: lookups go through a `[String: Int]` table,
        /// so that the last duplicate wins and names compare as Swift strings do (canonical
        /// equivalence), as `JSONObject` and `JSONDecoder` compare them.
        case strings
    }

    /// The tape index of the object.
    var object: Int
    /// The coding-path node of the object.
    var node: Int
    /// The tape index of the name entry where the next lookup starts: just past the last match,
    /// as synthesized `init(from:)`s ask for members in the order they were written.
    var cursor: Int
    var names: Names
}
