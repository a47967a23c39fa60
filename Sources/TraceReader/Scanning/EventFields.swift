@_spi(RewindInternals) package import RewindSupport
@_spi(RewindInternals) import TraceJSON

/// The top-level members of one event line, as `EventScanner.scan` found them.
///
/// A member that is absent, or present with the wrong JSON type, is nil here; the wrong types
/// are listed in `wrongTypes`. Strings are byte ranges of the line; `string(_:in:)` makes them
/// `String`s.
package struct EventFields: Equatable {
    /// The body of a JSON string value in the line: the bytes between its quotes.
    package struct Text: Equatable {
        // 32-bit offsets keep `EventFields` small (a line is at most 1 GiB): the validator
        // copies one per line between threads.
        private var start: UInt32
        private var end: UInt32
        /// Whether the body holds a `\` escape, so that its bytes are not its text.
        package var hasEscapes: Bool

        init(range: Range<Int>, hasEscapes: Bool) {
            self.start = UInt32(truncatingIfNeeded: range.lowerBound)
            self.end = UInt32(truncatingIfNeeded: range.upperBound)
            self.hasEscapes = hasEscapes
        }

        /// The bytes between the quotes.
        package var range: Range<Int> { Int(start)..<Int(end) }
    }

    /// A byte range of the line, in 32 bits; `end` 0 when absent (no value ends at offset 0).
    struct Span: Equatable {
        var start: UInt32 = 0
        var end: UInt32 = 0

        @inline(__always)
        init(_ range: Range<Int>?) {
            if let range {
                start = UInt32(truncatingIfNeeded: range.lowerBound)
                end = UInt32(truncatingIfNeeded: range.upperBound)
            }
        }

        @inline(__always)
        var range: Range<Int>? { end == 0 ? nil : Int(start)..<Int(end) }
    }

    /// A key the format page defines for events.
    package enum Key: UInt16, CaseIterable, Sendable {
        // In the order the recorder writes them.
        case type, seq, elapsed, store, action, caseName, from, to, changed, state, source, cause, args
        // Since the format's version 2 page: `restore`'s `step` and `trace`, a transition's
        // `stack`, a register's `machine`, and a version 2 transition's `patch`.
        case step, trace, stack, machine, patch

        /// The key as written in a trace: `"case"` for `.caseName`.
        var name: String {
            switch self {
            case .caseName: "case"
            default: "\(self)"
            }
        }

        /// The JSON type the format requires, for messages: "an integer".
        var expectedType: String {
            switch self {
            case .seq, .cause, .step: "an integer"
            case .elapsed: "a number"
            case .changed: "a boolean"
            case .args: "an object"
            case .state: "any JSON value"
            case .type, .store, .action, .caseName, .from, .to, .source, .trace: "a string"
            case .stack: "an array of strings"
            case .machine: #"a machine {"initial": CASE, "transitions": {CASE: [CASE, ...]}}"#
            case .patch: #"an array of operations, each an object with a string "op" and a string "path""#
            }
        }
    }

    /// A set of `Key`s, as bits.
    struct KeySet: Equatable, Sendable {
        var bits: UInt32 = 0

        static let empty = KeySet()

        var isEmpty: Bool { bits == 0 }

        @inline(__always)
        func contains(_ key: Key) -> Bool { bits & (1 << key.rawValue) != 0 }

        @inline(__always)
        mutating func insert(_ key: Key) { bits |= 1 << key.rawValue }

        @inline(__always)
        mutating func remove(_ key: Key) { bits &= ~(1 << key.rawValue) }

        /// The keys in the set, in the recorder's order.
        var keys: [Key] { Key.allCases.filter(contains) }
    }

    package var type: Text?
    package var seq: Int?
    /// The number text of `elapsed`.
    package var elapsedRange: Range<Int>? {
        get { elapsedSpan.range }
        set { elapsedSpan = Span(newValue) }
    }
    package var store: Text?
    package var action: Text?
    /// `case`.
    package var caseName: Text?
    package var from: Text?
    package var to: Text?
    package var changed: Bool?
    /// The bytes of the `state` value, whatever its type.
    package var stateRange: Range<Int>? {
        get { stateSpan.range }
        set { stateSpan = Span(newValue) }
    }
    package var source: Text?
    package var cause: Int?
    /// The bytes of the `args` object.
    package var argsRange: Range<Int>? {
        get { argsSpan.range }
        set { argsSpan = Span(newValue) }
    }
    /// The bytes of the `machine` object (its shape is not checked by the scan).
    package var machineRange: Range<Int>? {
        get { machineSpan.range }
        set { machineSpan = Span(newValue) }
    }
    /// The bytes of the `patch` value, whatever its type.
    package var patchRange: Range<Int>? {
        get { patchSpan.range }
        set { patchSpan = Span(newValue) }
    }
    /// Whether the `patch` value is surely shaped as version 2 wants (`PatchShapeSink`), found
    /// by the scan that skipped it; false says only that `EventLineCheck` must look closer.
    var patchIsWellShaped = false
    private var elapsedSpan = Span(nil)
    private var stateSpan = Span(nil)
    private var argsSpan = Span(nil)
    private var machineSpan = Span(nil)
    private var patchSpan = Span(nil)
    /// The keys present with a JSON type other than the format's (a `seq` of `1.5` or `"1"`,
    /// a `store` of `null`, a `seq` too large for `Int`, a `stack` holding a number, a `machine`
    /// that is not an object). `patch` is never here: any value is kept for its version's rules.
    /// `step`, `trace` and `stack` are only in `present` or here: no reader needs their values.
    var wrongTypes = KeySet()
    /// The keys present with the right type: those that are not nil above.
    var present = KeySet()

    /// Whether the line has a numeric `elapsed`.
    var hasElapsed: Bool { elapsedRange != nil }

    /// Whether `key` is present with the right type.
    func has(_ key: Key) -> Bool {
        present.contains(key)
    }

    /// The text of a string member of `line`, the line these fields were scanned from.
    package static func string(_ text: Text, in line: ByteView) -> String {
        guard text.hasEscapes else {
            return line[text.range].string
        }
        // The quotes around the body are part of the line; the body was checked by the scan.
        let quoted = line[(text.range.lowerBound - 1)..<(text.range.upperBound + 1)]
        return (try? JSONParser.parse(quoted))?.stringValue ?? ""
    }

    /// Forgets `key`, for a later member with the same key.
    @inline(__always)
    mutating func clear(_ key: Key) {
        wrongTypes.remove(key)
        present.remove(key)
        switch key {
        case .type: type = nil
        case .seq: seq = nil
        case .elapsed: elapsedRange = nil
        case .store: store = nil
        case .action: action = nil
        case .caseName: caseName = nil
        case .from: from = nil
        case .to: to = nil
        case .changed: changed = nil
        case .state: stateRange = nil
        case .source: source = nil
        case .cause: cause = nil
        case .args: argsRange = nil
        case .step, .trace, .stack: break
        case .machine: machineRange = nil
        case .patch:
            patchRange = nil
            patchIsWellShaped = false
        }
    }

    @inline(__always)
    mutating func setText(_ text: Text, for key: Key) {
        switch key {
        case .type: type = text
        case .store: store = text
        case .action: action = text
        case .caseName: caseName = text
        case .from: from = text
        case .to: to = text
        case .source: source = text
        default: break
        }
    }
}
