#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Reading back what the recorder writes for Foundation's value types and for dictionaries keyed
// by a `String`-backed enum (see the Recorder's `FoundationValueEncoding` and
// `RecordedEncoding`), so that `TraceFile.state(of:atStep:as:)` returns exactly the value that was
// recorded:
//
// - `Date` from an RFC 3339 timestamp, exactly: the timestamp is turned back into the decimal
//   number of seconds since 2001 it was made from, digit by digit, and parsed once; a number (a
//   date outside the years 0000–9999, or an older trace) as seconds since 2001;
// - `Decimal` from a JSON number, its digits exactly (`Decimal(string:)`); the string `"NaN"`;
// - `URL` from a string; `Data` from base64;
// - `[Key: Value]` with a `String`-backed enum `Key` from a JSON object.
//
// Anything else (the object a `URL` or `Decimal` wrote in a trace recorded before, an array of
// bytes for `Data`) goes to the type's own `init(from:)`, as before.

extension JSONTapeDecoder {
    /// Whether `T` can be one of the types above: a dictionary is one word, the others are
    /// named. Asked before `recordedFoundationValue`, whose `T?` answer costs a lookup of the
    /// `Optional<T>` metadata in the runtime's cache on every call, for every struct and enum.
    @inline(__always)
    static func mayBeRecordedFoundationValue<T>(_ type: T.Type) -> Bool {
        MemoryLayout<T>.size == MemoryLayout<Int>.size || T.self == Date.self || T.self == Decimal.self
            || T.self == URL.self || T.self == Data.self
    }

    /// The value at the decoder's current position decoded as the recorder writes `T`, when `T`
    /// is one of the types above and the value has the recorder's shape; nil otherwise.
    @inline(__always)
    func recordedFoundationValue<T>(_ type: T.Type) throws -> T? {
        if T.self == Date.self { return try recordedDate().map { $0 as! T } }
        if T.self == Decimal.self { return try recordedDecimal().map { $0 as! T } }
        if T.self == URL.self { return try recordedURL().map { $0 as! T } }
        if T.self == Data.self { return try recordedData().map { $0 as! T } }
        // A dictionary is one word; checking that first keeps the conformance lookup off
        // every struct.
        if MemoryLayout<T>.size == MemoryLayout<Int>.size, currentKind == .object,
            let dictionary = T.self as? any EnumKeyedDictionary.Type
        {
            return try dictionary.decodeMembers(from: self) as? T
        }
        return nil
    }

    private var currentKind: JSONTapeEntry.Kind {
        state.pointee.tape[state.pointee.value].kind
    }

    private func corrupted(_ message: String) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: message))
    }

    private func recordedDate() throws -> Date? {
        switch currentKind {
        case .number: return Date(timeIntervalSinceReferenceDate: try decode(Double.self))
        case .string:
            let text = try decode(String.self)
            guard let seconds = RFC3339Seconds.secondsSinceReferenceDate(text) else {
                throw corrupted("\(text) is not an RFC 3339 timestamp (such as 2026-11-22T10:15:00.123Z)")
            }
            return Date(timeIntervalSinceReferenceDate: seconds)
        default: return nil
        }
    }

    private func recordedDecimal() throws -> Decimal? {
        switch currentKind {
        case .number:
            let entry = state.pointee.tape[state.pointee.value]
            let text = String(
                decoding: UnsafeBufferPointer(start: state.pointee.base + entry.start, count: entry.end - entry.start),
                as: UTF8.self)
            guard let decimal = Decimal(string: text, locale: nil) else {
                throw corrupted("\(text) does not fit a Decimal")
            }
            return decimal
        case .string:
            let text = try decode(String.self)
            guard text == "NaN" else { throw corrupted("expected a number for a Decimal, found \"\(text)\"") }
            return Decimal.nan
        default: return nil
        }
    }

    private func recordedURL() throws -> URL? {
        guard currentKind == .string else { return nil }
        let text = try decode(String.self)
        guard let url = URL(string: text) else { throw corrupted("\(text) is not a URL") }
        return url
    }

    private func recordedData() throws -> Data? {
        guard currentKind == .string else { return nil }
        guard let data = Data(base64Encoded: try decode(String.self)) else {
            throw corrupted("expected base64 for Data")
        }
        return data
    }
}

/// A dictionary keyed by a `String`-backed enum, which the recorder writes as a JSON object
/// (Swift's own `init(from:)` expects an array of key, value, key, value).
protocol EnumKeyedDictionary {
    static func decodeMembers(from decoder: any Decoder) throws -> Self
}

extension Dictionary: EnumKeyedDictionary
where Key: RawRepresentable & Decodable, Key.RawValue == String, Value: Decodable {
    static func decodeMembers(from decoder: any Decoder) throws -> Self {
        let container = try decoder.container(keyedBy: JSONCodingKey.self)
        var members: [Key: Value] = [:]
        for name in container.allKeys {
            guard let key = Key(rawValue: name.stringValue) else {
                throw DecodingError.dataCorruptedError(
                    forKey: name, in: container,
                    debugDescription: "\"\(name.stringValue)\" is not a case of \(Key.self)")
            }
            members[key] = try container.decode(Value.self, forKey: name)
        }
        return members
    }
}

/// An RFC 3339 timestamp read back into the exact number of seconds since 2001 it stands for.
enum RFC3339Seconds {
    /// `2001-01-01T00:00:00Z` in Unix seconds.
    static let referenceDateUnixSeconds: Int64 = 978_307_200

    /// The seconds since 2001 of `text` (`YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`), as the
    /// `Double` nearest to the exact decimal it names; nil when it is not such a timestamp.
    static func secondsSinceReferenceDate(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func isByte(_ index: Int, _ allowed: String) -> Bool { allowed.utf8.contains(bytes[index]) }
        guard let year = number(0..<4), isByte(4, "-"), let month = number(5..<7), isByte(7, "-"),
            let day = number(8..<10), isByte(10, "Tt "), let hour = number(11..<13), isByte(13, ":"),
            let minute = number(14..<16), isByte(16, ":"), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
        else { return nil }
        var index = 19
        var fraction: [UInt8] = []
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                fraction.append(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            guard !fraction.isEmpty else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset: Int64 = 0
        if isByte(index, "Zz") {
            index += 1
        } else if isByte(index, "+-"), index + 6 == bytes.count, isByte(index + 3, ":"),
            let hours = number(index + 1..<index + 3), let minutes = number(index + 4..<index + 6)
        {
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let unix =
            daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        let whole = unix - referenceDateUnixSeconds
        while fraction.last == 0 { fraction.removeLast() }
        let digits = { (values: [UInt8]) in String(decoding: values.map { $0 + UInt8(ascii: "0") }, as: UTF8.self) }
        if fraction.isEmpty { return Double(whole) }
        if whole >= 0 { return Double("\(whole).\(digits(fraction))") }
        // −n + 0.f = −((n − 1) + (1 − 0.f)), written with the fraction's complement.
        var complement = fraction.map { 9 - $0 }
        complement[complement.count - 1] += 1
        return Double("-\(-whole - 1).\(digits(complement))")
    }

    /// Days since 1970-01-01 of a date of the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
