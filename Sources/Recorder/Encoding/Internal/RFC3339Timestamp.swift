/// A `Date` as an RFC 3339 timestamp in UTC, made from the number of seconds since 2001 that
/// the date's own `encode(to:)` wrote, exactly: the timestamp names the same decimal number of
/// seconds, so reading it back gives the very same `Double`.
///
/// The encoder writes a `Double` as the shortest decimal that reads back as it (`785592800.125`,
/// `1e-07`). That decimal is split here, digit by digit with no floating point, into whole
/// seconds and a fraction; a negative one borrows a second (`-0.1` is second −1 plus `.9`).
/// Whole seconds become a calendar date (proleptic Gregorian, as RFC 3339 has it) and a time of
/// day; the fraction is written as is, at least three digits. A reader turns the timestamp back
/// into the same decimal of seconds since 2001 and parses it once: one correctly rounded
/// conversion of the number that was written, so the same `Double`.
enum RFC3339Timestamp {
    /// `2001-01-01T00:00:00Z`, the reference date of `Date`, in Unix seconds.
    static var referenceDateUnixSeconds: Int64 { 978_307_200 }

    /// The timestamp (`1995-11-22T10:13:20.125Z`) for `json`, a JSON number of seconds since
    /// 2001; nil when it is not one or is outside the years 0000–9999.
    static func text(secondsSinceReferenceDate json: UnsafeRawBufferPointer) -> String? {
        guard let number = DecimalDigits(json) else { return nil }
        let digits = number.digits
        let integerCount = digits.count + number.exponent
        // More than 15 digits of seconds is more than 30 million years: no RFC 3339 year.
        guard integerCount <= 15 else { return nil }
        var whole: Int64 = 0
        for position in 0..<max(integerCount, 0) {
            whole = whole * 10 + Int64(position < digits.count ? digits[position] : 0)
        }
        var fraction =
            integerCount >= 0
            ? Array(digits.dropFirst(integerCount)) : [UInt8](repeating: 0, count: -integerCount) + digits
        while fraction.last == 0 { fraction.removeLast() }
        if number.isNegative {
            whole = -whole
            if !fraction.isEmpty {
                // −w − 0.f = −(w + 1) + (1 − 0.f): the fraction's complement, same length.
                whole -= 1
                fraction = fraction.map { 9 - $0 }
                fraction[fraction.count - 1] += 1
            }
        }
        return text(unixSeconds: whole + referenceDateUnixSeconds, fraction: fraction)
    }

    /// The timestamp of `unixSeconds` and a fraction of a second (its digits, 0–9, written as
    /// given and then with zeros up to three); nil outside the years 0000–9999.
    static func text(unixSeconds unix: Int64, fraction: [UInt8]) -> String? {
        var fraction = fraction
        let days = unix >= 0 ? unix / 86_400 : -((-unix + 86_399) / 86_400)
        let second = unix - days * 86_400
        let (year, month, day) = civilDate(fromDays: days)
        guard (0...9999).contains(year) else { return nil }
        while fraction.count < 3 { fraction.append(0) }
        var text: [UInt8] = []
        func put(_ value: Int64, _ width: Int, then separator: UInt8) {
            var divisor: Int64 = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
            text.append(separator)
        }
        put(year, 4, then: UInt8(ascii: "-"))
        put(month, 2, then: UInt8(ascii: "-"))
        put(day, 2, then: UInt8(ascii: "T"))
        put(second / 3600, 2, then: UInt8(ascii: ":"))
        put(second / 60 % 60, 2, then: UInt8(ascii: ":"))
        put(second % 60, 2, then: UInt8(ascii: "."))
        text += fraction.map { $0 + UInt8(ascii: "0") }
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// The year, month and day of the day `days` after 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`, exact for any day in the proleptic Gregorian calendar).
    static func civilDate(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
