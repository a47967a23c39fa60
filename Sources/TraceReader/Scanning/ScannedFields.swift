/// The members of one event line where a scan left them (a file part's line slot, a stream's
/// scratch), lent to the call that gives them: a reference of one word instead of a copy of the
/// fields' 150 bytes per line, as `ByteView` is for a line's bytes.
///
/// Valid only during that call, and read-only: the pointer stays in here, with no arithmetic on
/// it. (Passed by value, the fields were copied at every call they went through, several per
/// line.)
package struct ScannedFields {
    private let pointer: UnsafePointer<EventFields>

    /// The fields at `pointer`, memory that a storage type owns (a file part's line slot, a
    /// stream's scratch) and keeps in place while the reference is used.
    @inline(__always)
    init(_ pointer: UnsafePointer<EventFields>) {
        self.pointer = pointer
    }

    /// The fields, read in place (a member is read without copying the rest).
    @inline(__always)
    package var pointee: EventFields {
        unsafeAddress { pointer }
    }

    /// Calls `body` with a reference to `fields`, kept in place for the call.
    @inline(__always)
    package static func lending<Result>(_ fields: EventFields, _ body: (ScannedFields) -> Result) -> Result {
        withUnsafePointer(to: fields) { body(ScannedFields($0)) }
    }

    /// Calls `body` with a reference to `fields`, where they are (not copied for the call).
    @inline(__always)
    static func lending<Result>(_ fields: inout EventFields, _ body: (ScannedFields) -> Result) -> Result {
        withUnsafePointer(to: &fields) { body(ScannedFields($0)) }
    }

}
