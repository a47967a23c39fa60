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
///     {"type":"register","seq":N,"elapsed":E,"store":S[,"case":C],"state":V}
///     {"type":"transition","seq":N,"elapsed":E,"store":S,"action":A[,"from":F,"to":T],
///      "changed":B,"state":V,"source":S[,"cause":N][,"args":{…}]}
///
/// so a line from the recorder can be read by matching each `,"name":` as bytes instead of
/// scanning and classifying every member name. Values are read by the same functions as the
/// general scan, so the fields come out identical (a test compares the two on every kind of
/// line). At the first byte that departs from the layout (whitespace, another order, another
/// member, a value of the wrong type, anything invalid) this gives up and returns nil, and the
/// general scan reads the line from its start; it never decides that a line is invalid.
extension EventScanner.Cursor {
    mutating func scanRecorderLayout() -> EventFields? {
        var fields = EventFields()
        guard let type = string(after: Literals.openType), !type.hasEscapes else { return nil }
        let isTransition: Bool
        switch type.range.count {
        case 10 where same(type.range.lowerBound, Literals.transition): isTransition = true
        case 8 where same(type.range.lowerBound, Literals.register): isTransition = false
        default: return nil
        }
        fields.type = type
        fields.present.insert(.type)

        guard literal(Literals.seq), let seq = scanPlainInteger() else { return nil }
        fields.seq = seq
        fields.present.insert(.seq)
        guard literal(Literals.elapsed) else { return nil }
        let elapsedStart = position
        guard scanNumber() else { return nil }
        fields.elapsedRange = elapsedStart..<position
        fields.present.insert(.elapsed)
        guard let store = string(after: Literals.store) else { return nil }
        fields.store = store
        fields.present.insert(.store)

        if isTransition {
            guard let action = string(after: Literals.action) else { return nil }
            fields.action = action
            fields.present.insert(.action)
            if let from = string(after: Literals.from) {
                guard let to = string(after: Literals.to) else { return nil }
                fields.from = from
                fields.to = to
                fields.present.insert(.from)
                fields.present.insert(.to)
            }
            guard literal(Literals.changed) else { return nil }
            let changedStart = position
            guard scanBoolean() else { return nil }
            fields.changed = position &- changedStart == 4  // `true`; `false` is 5 bytes
            fields.present.insert(.changed)
            guard skipState(into: &fields), let source = string(after: Literals.source) else { return nil }
            fields.source = source
            fields.present.insert(.source)
            if literal(Literals.cause) {
                guard let cause = scanPlainInteger() else { return nil }
                fields.cause = cause
                fields.present.insert(.cause)
            }
            if literal(Literals.args) {
                guard position < count, base[position] == UInt8(ascii: "{") else { return nil }
                let start = position
                guard let end = try? JSONSyntax.skipValue(in: line, at: position) else { return nil }
                position = end
                fields.argsRange = start..<end
                fields.present.insert(.args)
            }
        } else {
            if let caseName = string(after: Literals.caseName) {
                fields.caseName = caseName
                fields.present.insert(.caseName)
            }
            guard skipState(into: &fields) else { return nil }
        }
        guard position &+ 1 == count, base[position] == UInt8(ascii: "}") else { return nil }
        position = count
        return fields
    }

    /// The recorder's bytes between and around values.
    private enum Literals {
        static let openType: StaticString = #"{"type":"#
        static let transition: StaticString = "transition"
        static let register: StaticString = "register"
        static let seq: StaticString = #","seq":"#
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
    }

    /// Whether the line holds `literal` at `offset`.
    @inline(__always)
    private func same(_ offset: Int, _ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        return offset &+ length <= count && memcmp(base + offset, literal.utf8Start, length) == 0
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

    /// Moves past `,"state":` and its value, which must be valid JSON.
    @inline(__always)
    private mutating func skipState(into fields: inout EventFields) -> Bool {
        // The value starts right after the colon (`skipValue` would take whitespace into its range).
        guard literal(Literals.state), position < count, base[position] > 0x20,
              let end = try? JSONSyntax.skipValue(in: line, at: position)
        else { return false }
        fields.stateRange = position..<end
        fields.present.insert(.state)
        position = end
        return true
    }
}
