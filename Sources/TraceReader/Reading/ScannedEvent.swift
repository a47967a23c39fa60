@_spi(RewindInternals) package import RewindSupport
import TraceJSON

/// An event as `TraceStream.forEachScannedLine` reaches it: its top-level members as bytes of
/// its line, read without making a `String` or building a value, for a command that prints
/// every event of a large trace (`inspector log`) and copies the bytes it can copy as they are.
///
/// The bytes belong to the reading: a `ScannedEvent` is valid only during the call that gives
/// it, and must not be kept (`event` makes a `TraceEvent` that can be).
///
/// ```swift
/// try TraceStream(path: "run.jsonl").forEachScannedLine { line in
///     if let event = line.event, let store = event.rawText(.store) {
///         print(event.seq, String(decoding: store, as: UTF8.self))
///     }
///     return true
/// }
/// ```
public struct ScannedEvent {
    /// A string member of an event.
    public enum Member: Sendable {
        case type, store, action, caseName, from, to, source
    }

    /// The event's position among the trace's events, from 0.
    public let index: Int
    /// The 1-based file line of the event.
    public let line: Int
    /// The bytes of the whole line, without its newline.
    public var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: view.unsafeBaseAddress, count: view.count)
    }
    /// The same bytes, as the reader reads them.
    package let view: ByteView
    /// The members, where the scan left them (by pointer: they are 150 bytes, and an event is
    /// passed on several times per line).
    private let members: ScannedFields

    init?(fields: ScannedFields, bytes: ByteView, index: Int, line: Int) {
        guard fields.pointee.type != nil, fields.pointee.seq != nil else { return nil }
        self.members = fields
        self.view = bytes
        self.index = index
        self.line = line
    }

    /// The event's `seq`.
    public var seq: Int { members.pointee.seq ?? 0 }

    /// `changed`, when it is a boolean.
    public var changed: Bool? { members.pointee.changed }

    /// `cause`, when it is an integer.
    public var cause: Int? { members.pointee.cause }

    /// Whether the string member is present (as a string).
    public func has(_ member: Member) -> Bool {
        text(member) != nil
    }

    /// The bytes of the string member between its quotes, when it is present and written
    /// without a `\` escape (so that its bytes are its UTF-8 text); nil otherwise, when `event`
    /// says what it holds.
    package func rawText(_ member: Member) -> ByteView? {
        guard let text = text(member), !text.hasEscapes else { return nil }
        return view[text.range]
    }

    /// The text of `elapsed` as written (`0.000137`), when it is a number.
    package var elapsedText: ByteView? {
        members.pointee.elapsedRange.map { view[$0] }
    }

    /// The text of `args` as written (`{"sku":"MUG"}`), when it is an object.
    package var argsText: ByteView? {
        members.pointee.argsRange.map { view[$0] }
    }

    /// The event without its `state`, as `TraceStream.forEachLine` gives it.
    public var event: TraceEvent {
        // `init` checked the `type` and `seq` that `TraceEvent(fields:)` needs.
        TraceEvent(fields: members.pointee, in: view, index: index, lineNumber: line)!
    }

    private func text(_ member: Member) -> EventFields.Text? {
        switch member {
        case .type: members.pointee.type
        case .store: members.pointee.store
        case .action: members.pointee.action
        case .caseName: members.pointee.caseName
        case .from: members.pointee.from
        case .to: members.pointee.to
        case .source: members.pointee.source
        }
    }
}
