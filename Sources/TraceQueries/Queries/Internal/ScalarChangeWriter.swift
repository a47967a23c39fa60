@_spi(RewindInternals) internal import RewindSupport
internal import ToolSupport
import TraceJSON
import TraceReader

/// Writes the text of a `ValueHistory` change straight from the bytes of its event's line, for
/// `ValueHistory.writeChanges`: no `TraceEvent`, no `JSONValue`, no `ValueChange`, and the
/// path's text worked out once.
///
/// It writes only a change it can write exactly as `ValueChangeText.append(_:to:)` writes the
/// `ValueChange` the general walk finds: a version 1 event (a whole `state`), a path without a
/// name that may select an array element (it reads the same in every state), a value before and
/// after that are each a scalar or nothing, whose spelling settles that they differ
/// (`ScalarDifference`), both plain and short enough not to be cut (`ValueChangeText`), and an
/// event whose type, store, action and source are plain (and a path whose text is printable
/// ASCII), so that the text needs no neutralizing for a terminal. The lines are written by
/// `ValueChangeText`, as for a `ValueChange`. Any other event is left to the general walk,
/// which reads it again; the value before the next event is kept as the walk keeps it.
struct ScalarChangeWriter: Sendable {
    let trace: TraceFile
    /// The path inside the store's state.
    let tail: ArraySlice<StatePath.Component>
    /// The change lines at the path; nil when a name in it may select an array element (the
    /// general walk then writes every change, with the path as each state reads it).
    let changeLine: ValueChangeText.ScalarLine?
    let text: ValueChangeText

    init(history: ValueHistory, text: ValueChangeText) {
        trace = history.trace
        tail = history.path.components.dropFirst()
        let path = StateDiffPrinter.LinePath(history.path)
        // A path whose text is not printable ASCII is left to the general walk, whose text is
        // neutralized for a terminal: the writer's needs no neutralizing.
        changeLine =
            history.path.components.contains(where: ValueHistory.mayNameAnIndex)
                || !DisplayWidth.isPrintableASCII(path.text) ? nil : ValueChangeText.ScalarLine(at: path, as: text)
        self.text = text
    }

    /// What the scan of one event's line found.
    private enum Outcome {
        /// The value's bytes are those of `previous`: no change.
        case same
        /// A change, written; the value's bytes after it (nil when it went).
        case written([UInt8]?)
        /// Nothing written: the general walk must read the event.
        case general
    }

    /// Deals with the event at `position` (one that may change the value) if it can: true when
    /// it did (a change written to `output`, no change, or a line that cannot be read, passed
    /// over) and `previous` is the value after it; false, nothing written, when the general walk
    /// must read the event. `names` keeps the headings' names written before (one writer's
    /// part's, on one thread).
    func write(
        at position: Int, after previous: inout ValueHistory.Reading, through window: inout TraceSource.Window,
        names: inout HeadingNames, to output: inout [UInt8]
    ) -> Bool {
        guard let changeLine, !trace.index.isPatched(position) else { return false }
        let old: [UInt8]?
        switch previous {
        case .unreadable: return false
        case .absent: old = nil
        case .present(let bytes, _): old = bytes
        }
        let eventIndex = trace.index.storeEvents[position]
        let tail = self.tail
        let outcome: Outcome? = trace.scanEvent(at: eventIndex, through: &window) { fields, line in
            let found = fields.stateRange.flatMap { ValueLocator.locate(tail, in: line, range: $0) }
            let value = found.map { line[$0] }
            switch (old, value) {
            case (nil, nil): return .same
            case (let old?, let value?) where ByteView.withBytes(of: old, { $0.elementsEqual(value) }): return .same
            default: break
            }
            let new = value.map { $0.array }
            if let old, let new {
                guard ScalarDifference.differ(old, new) == true else { return .general }
            }
            guard (old ?? new).map(Self.isScalar) ?? false, (new ?? old).map(Self.isScalar) ?? false,
                let type = fields.type, !type.hasEscapes, fields.seq != nil,
                let step = trace.step(ofEventAt: eventIndex), trace.line(ofEventAt: eventIndex) != nil
            else { return .general }
            func plain(_ field: EventFields.Text?) -> Bool {
                guard let field else { return true }
                return !field.hasEscapes && ValueChangeText.isPlain(line[field.range])
            }
            guard plain(type), plain(fields.store), plain(fields.action), plain(fields.source) else {
                return .general
            }
            let start = output.count
            let key = HeadingNames.Key(type: type, fields: fields)
            let entry =
                names.entry(for: key, in: line)
                ?? names.add(key, in: line) { output in
                    let typeBytes = line[type.range]
                    text.appendNames(
                        isTransition: typeBytes.equals("transition"),
                        hasSource: fields.source != nil,
                        hasCause: key.hasCause, to: &output
                    ) { text, output in
                        let field: EventFields.Text?
                        switch text {
                        case .store: field = fields.store
                        case .action: field = fields.action
                        case .type: field = type
                        case .source: field = fields.source
                        }
                        if let field {
                            line[field.range].append(to: &output)
                        } else {
                            output.append(UInt8(ascii: "?"))
                        }
                    }
                }
            text.appendHeading(step: step, hasSource: fields.source != nil, cause: fields.cause, to: &output) {
                names.append(entry, to: &$0)
            }
            let written = old.withOptionalBytes { old in
                new.withOptionalBytes { new in text.appendScalarChange(changeLine, from: old, to: new, to: &output) }
            }
            guard written else {
                output.removeSubrange(start...)
                return .general
            }
            return .written(new)
        }
        switch outcome {
        case nil, .same?: return true
        case .general?: return false
        case .written(let new)?:
            previous = new.map { .present($0, nil) } ?? .absent
            return true
        }
    }

    /// Whether the JSON text `bytes` is a scalar: not an object or an array.
    private static func isScalar(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first else { return false }
        return first != UInt8(ascii: "{") && first != UInt8(ascii: "[")
    }
}

extension [UInt8]? {
    /// Calls `body` with the array's bytes, or nil when there is no array.
    fileprivate func withOptionalBytes<Result>(_ body: (ByteView?) -> Result) -> Result {
        guard let self else { return body(nil) }
        return ByteView.withBytes(of: self) { body($0) }
    }
}
