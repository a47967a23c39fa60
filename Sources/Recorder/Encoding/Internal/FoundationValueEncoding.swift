/// Foundation's value types, written as a person reads them and as `JSONDecoder` expects them,
/// without importing Foundation (the Recorder stays small enough for any app):
///
/// - `Date`: an RFC 3339 timestamp in UTC, with as many fraction digits as it takes to read back
///   the very same `Double` (at least three): `"1995-11-22T10:13:20.125Z"`. (Its own `Codable`
///   writes seconds since 2001, `785592800.125`, which reads as a 1994 Unix time.) A date
///   outside the years 0000–9999 keeps that number.
/// - `Decimal`: a JSON number with its exact digits, `19.99` (not an object of mantissa words);
///   NaN as the string `"NaN"`.
/// - `URL`: its absolute string. (A URL made relative to a base URL keeps the form its own
///   `encode(to:)` writes, `{"relative":…,"base":…}`: resolving it takes more code than this
///   library may weigh.)
/// - `Data`: base64, as `JSONDecoder` reads `Data` by default.
///
/// The types are recognized by their names (`FoundationEssentials.Date`, or `Foundation.Date`
/// where Foundation is one module), once per type in the encoder's type table; what a value
/// holds is learned from what its own `encode(to:)` writes (a `Date` its seconds, a `URL` its
/// parts, `Data` its bytes), or, for `Decimal`, from its exact `description`. A value whose
/// `encode(to:)` writes something else is left as it wrote it.
enum FoundationValueEncoding {
    /// How the encoder writes values of `type`: one of Foundation's four, or `.plain`.
    static func writing(of type: Any.Type) -> TypeTable.Writing {
        var name = _typeName(type, qualified: true)
        for module in ["FoundationEssentials.", "Foundation."] where name.hasPrefix(module) {
            name.removeFirst(module.utf8.count)
            switch name {
            case "Date": return .date
            case "Decimal": return .decimal
            case "URL": return .url
            case "Data": return .data
            default: return .plain
            }
        }
        return .plain
    }
}

extension EncodingContext {
    /// Writes a value of one of Foundation's four types (see `FoundationValueEncoding`). (The
    /// generic part is kept to the call of the value's own code; the rest is not generic.)
    func encodeFoundationValue<T: Encodable>(_ value: T, as writing: TypeTable.Writing) throws {
        if writing == .decimal {
            FoundationValueEncoding.appendDecimal(String(describing: value), to: output)
            return
        }
        let mark = output.count
        try encodeComposite(value)
        FoundationValueEncoding.rewrite(output, from: mark, as: writing)
    }
}

extension FoundationValueEncoding {
    /// Writes a `Decimal`'s description, which is its exact digits (`-0.001`, `19.99`, no
    /// exponent), as a number; `NaN` as a string.
    static func appendDecimal(_ description: String, to output: JSONOutput) {
        var digits = description
        let isNumber = digits.withUTF8 { bytes in
            guard let first = bytes.first, first == UInt8(ascii: "-") || (first >= 0x30 && first <= 0x39) else {
                return false
            }
            output.append(UnsafeRawBufferPointer(bytes))
            return true
        }
        if !isNumber { output.appendString(description) }
    }

    /// Replaces what a date, URL or data value's own `encode(to:)` wrote from `mark` on with its
    /// readable form; leaves it as written when it is not what the type usually writes.
    static func rewrite(_ output: JSONOutput, from mark: Int, as writing: TypeTable.Writing) {
        let written = Array(output.bytes(from: mark))
        let text: String?
        switch writing {
        case .date: text = written.withUnsafeBytes(RFC3339Timestamp.text(secondsSinceReferenceDate:))
        case .url: text = URLParts.absoluteString(json: written)
        default: text = ByteArrayText.bytes(of: written).map(Base64.encode)
        }
        guard let text else { return }
        output.count = mark
        output.appendString(text)
    }
}
