@_spi(RewindInternals) internal import RewindSupport
import TraceJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fast path of `EventScanner`: a line laid out exactly as `TraceRecorder` writes it.
///
/// The recorder writes the members of an event in one order, with no whitespace:
///
///     {"type":"register","seq":N,"elapsed":E,"store":S[,"case":C][,"machine":{…}],"state":V[,"machine":{…}]}
///     {"type":"restore","seq":N,"elapsed":E,"store":S[,"case":C],"state":V[,"step":N][,"trace":T]}
///     {"type":"transition","seq":N,"elapsed":E,"store":S,"action":A[,"from":F,"to":T],
///      "changed":B,"state":V|"patch":P,"source":S[,"cause":N][,"args":{…}][,"stack":[…]]}
///
/// (`machine` is read before or after `state`, wherever a recorder puts it.)
///
/// so a line from the recorder can be read by matching each `,"name":` as bytes instead of
/// scanning and classifying every member name. Values are read by the same functions as the
/// general scan, so the fields come out identical (a test compares the two on every kind of
/// line). At the first byte that departs from the layout (whitespace, another order, another
/// member, a value of the wrong type, anything invalid) this gives up and returns false, and the
/// general scan reads the line from its start; it never decides that a line is invalid.
extension EventScanner {
    /// Scans the line that starts at the start of `bytes` and ends at the first `\n` in them,
    /// without that `\n` being looked for first, when the line has the recorder's layout
    /// (above) and its `\n` comes right after its closing `}`: returns the
    /// line's length without the `\n`, `fields` (empty on entry) then holding what
    /// `scan(_:into:)` of the line gives. Returns nil for any other line (then `fields` holds a
    /// part of it, to be thrown away, and the caller finds the line's end and scans it).
    ///
    /// This is `scan` with the finding of the line's end folded in: the fast path reads every
    /// token of the line anyway, and no token of its compact layout holds a `\n` (strings may
    /// not, and it takes no whitespace), so the line ends where its closing `}` is followed by
    /// `\n`. Only its general skips take whitespace, so a line where it used one is checked for
    /// an earlier `\n`.
    @inline(__always)
    static func scanRecorderLine(_ bytes: ByteView, into fields: inout EventFields) -> Int? {
        guard bytes.count < Int(UInt32.max) else { return nil }
        var cursor = Cursor(bytes)
        guard cursor.scanRecorderMembers(into: &fields) else { return nil }
        let end = cursor.position
        guard end &+ 1 < cursor.count, cursor.base[end] == UInt8(ascii: "}"), cursor.base[end &+ 1] == 0x0A else {
            return nil
        }
        if cursor.tookGeneralSkip && bytes.prefix(end).firstIndex(of: 0x0A) != nil { return nil }
        return end &+ 1
    }
}

extension EventScanner.Cursor {
    /// Reads the line into `fields` (empty on entry) and returns true, or returns false when the
    /// line departs from the layout (`fields` then holds a part of it, to be thrown away).
    @inline(__always)
    mutating func scanRecorderLayout(into fields: inout EventFields) -> Bool {
        guard scanRecorderMembers(into: &fields), position &+ 1 == count, base[position] == UInt8(ascii: "}") else {
            return false
        }
        position = count
        return true
    }

    /// Reads the members of the line into `fields` (empty on entry) and returns true, the cursor
    /// then on the byte after the last member (the closing `}` of a line in the layout, which the
    /// caller checks); returns false when the line departs from the layout.
    @inline(__always)
    mutating func scanRecorderMembers(into fields: inout EventFields) -> Bool {
        // The type and the `seq` name matched as one literal: the type's string is not scanned.
        let typeStart = position &+ Literals.openTypeCount
        let isTransition: Bool
        var isRestore = false
        if literal(Literals.transitionToSeq) {
            isTransition = true
        } else if literal(Literals.registerToSeq) {
            isTransition = false
        } else if literal(Literals.restoreToSeq) {
            isTransition = false
            isRestore = true
        } else {
            return false
        }
        fields.type = EventFields.Text(
            range: typeStart..<(position &- Literals.seqCount &- 1), hasEscapes: false)
        fields.present.insert(.type)

        guard let seq = scanPlainInteger() else { return false }
        fields.seq = seq
        fields.present.insert(.seq)
        guard literal(Literals.elapsed) else { return false }
        let elapsedStart = position
        guard scanNumber() else { return false }
        fields.elapsedRange = elapsedStart..<position
        fields.present.insert(.elapsed)
        guard let store = string(after: Literals.store) else { return false }
        fields.store = store
        fields.present.insert(.store)

        if isTransition {
            guard let action = string(after: Literals.action) else { return false }
            fields.action = action
            fields.present.insert(.action)
            if let from = string(after: Literals.from) {
                guard let to = string(after: Literals.to) else { return false }
                fields.from = from
                fields.to = to
                fields.present.insert(.from)
                fields.present.insert(.to)
            }
            guard literal(Literals.changed) else { return false }
            let changedStart = position
            guard scanBoolean() else { return false }
            fields.changed = position &- changedStart == 4  // `true`; `false` is 5 bytes
            fields.present.insert(.changed)
            guard skipState(into: &fields) || skipPatch(into: &fields), let source = string(after: Literals.source)
            else { return false }
            fields.source = source
            fields.present.insert(.source)
            // Most transitions end here: no optional member to look for.
            if position < count && base[position] == UInt8(ascii: "}") { return true }
            if literal(Literals.cause) {
                guard let cause = scanPlainInteger() else { return false }
                fields.cause = cause
                fields.present.insert(.cause)
            }
            if literal(Literals.args) {
                guard let range = skipValue(startingWith: UInt8(ascii: "{")) else { return false }
                fields.argsRange = range
                fields.present.insert(.args)
            }
            if literal(Literals.stack) {
                guard let range = skipValue(startingWith: UInt8(ascii: "[")), isArrayOfStrings(range) else {
                    return false
                }
                fields.present.insert(.stack)
            }
        } else {
            if let caseName = string(after: Literals.caseName) {
                fields.caseName = caseName
                fields.present.insert(.caseName)
            }
            if !isRestore && literal(Literals.machine) {
                guard let range = skipValue(startingWith: UInt8(ascii: "{")) else { return false }
                fields.machineRange = range
                fields.present.insert(.machine)
            }
            guard skipState(into: &fields) else { return false }
            if isRestore {
                if literal(Literals.step) {
                    guard scanPlainInteger() != nil else { return false }
                    fields.present.insert(.step)
                }
                if literal(Literals.trace) {
                    guard position < count, base[position] == UInt8(ascii: "\""), (try? scanStringValue()) != nil
                    else { return false }
                    fields.present.insert(.trace)
                }
            } else if !fields.present.contains(.machine) && literal(Literals.machine) {
                guard let range = skipValue(startingWith: UInt8(ascii: "{")) else { return false }
                fields.machineRange = range
                fields.present.insert(.machine)
            }
        }
        return true
    }

    /// The recorder's bytes between and around values.
    private enum Literals {
        /// A line's start up to its `seq`'s value, for each type: `{"type":"`, the type, `","seq":`.
        static let transitionToSeq: StaticString = #"{"type":"transition","seq":"#
        static let registerToSeq: StaticString = #"{"type":"register","seq":"#
        static let restoreToSeq: StaticString = #"{"type":"restore","seq":"#
        /// The bytes of `{"type":"` before the type, and of `,"seq":` after its closing quote.
        static let openTypeCount = 9
        static let seqCount = 7
        static let elapsed: StaticString = #","elapsed":"#
        static let store: StaticString = #","store":"#
        static let action: StaticString = #","action":"#
        static let from: StaticString = #","from":"#
        static let to: StaticString = #","to":"#
        static let changed: StaticString = #","changed":"#
        static let caseName: StaticString = #","case":"#
        static let state: StaticString = #","state":"#
        static let source: StaticString = #","source":"#
        static let cause: StaticString = #","cause":"#
        static let args: StaticString = #","args":"#
        static let stack: StaticString = #","stack":"#
        static let machine: StaticString = #","machine":"#
        static let patch: StaticString = #","patch":"#
        static let step: StaticString = #","step":"#
        static let trace: StaticString = #","trace":"#
    }

    /// Whether the line holds `literal` at `offset`.
    @inline(__always)
    private func same(_ offset: Int, _ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        return offset &+ length <= count && ShortBytes.equal(base + offset, literal.utf8Start, count: length)
    }

    /// Moves past `literal` when the line holds it at the cursor.
    @inline(__always)
    private mutating func literal(_ literal: StaticString) -> Bool {
        guard same(position, literal) else { return false }
        position &+= literal.utf8CodeUnitCount
        return true
    }

    /// The string value after `name` (`,"store":`), when both are there.
    @inline(__always)
    private mutating func string(after name: StaticString) -> EventFields.Text? {
        let start = position
        guard literal(name), position < count, base[position] == UInt8(ascii: "\""),
            let text = try? scanStringValue()
        else {
            position = start
            return nil
        }
        return text
    }

    /// Moves past the valid JSON value at the cursor, which must start with `first` (`{` for an
    /// object, `[` for an array); returns its range, or nil (the cursor then is anywhere).
    @inline(__always)
    private mutating func skipValue(startingWith first: UInt8) -> Range<Int>? {
        guard position < count, base[position] == first else { return nil }
        let start = position
        guard let end = skipValidValue() else { return nil }
        return start..<end
    }

    /// Moves past the valid JSON value at the cursor (the compact walk first, and the general
    /// skip from the same start when that gives up); returns its end, or nil when it is invalid.
    @inline(__always)
    private mutating func skipValidValue() -> Int? {
        let start = position
        if let end = EventScanner.Cursor.compactValueEnd(in: line, at: start) {
            position = end
            return end
        }
        tookGeneralSkip = true
        guard let end = try? JSONSyntax.skipValue(in: line, at: start) else { return nil }
        position = end
        return end
    }

    /// Moves past `,"patch":` and its value, which must be valid JSON (of any type, as in the
    /// general scan).
    @inline(__always)
    private mutating func skipPatch(into fields: inout EventFields) -> Bool {
        // One scan checks the patch as JSON and its shape (`PatchShapeSink`), so that opening a
        // version 2 trace does not read every patch twice; the compact walk would be the first.
        guard literal(Literals.patch), position < count, base[position] > 0x20,
            let (end, wellShaped) = try? PatchShapeSink.skipValue(in: line, at: position)
        else { return false }
        tookGeneralSkip = true
        fields.patchRange = position..<end
        fields.patchIsWellShaped = wellShaped
        position = end
        fields.present.insert(.patch)
        return true
    }

    /// Moves past `,"state":` and its value, which must be valid JSON.
    @inline(__always)
    private mutating func skipState(into fields: inout EventFields) -> Bool {
        // The value starts right after the colon (`skipValue` would take whitespace into its range).
        guard literal(Literals.state), position < count, base[position] > 0x20 else { return false }
        let start = position
        guard let end = skipValidValue() else { return false }
        fields.stateRange = start..<end
        fields.present.insert(.state)
        return true
    }
}
