/// Foundation's value types, written as a person reads them and as `JSONDecoder` expects them,
/// without importing Foundation (the Recorder stays small enough for any app):
///
/// - `Date`: an RFC 3339 timestamp in UTC, with as many fraction digits as it takes to read back
///   the very same `Double` (at least three): `"1995-11-22T10:13:20.125Z"`. (Its own `Codable`
///   writes seconds since 2001, `785592800.125`, which reads as a 1994 Unix time.) A date
///   outside the years 0000–9999 keeps that number.
/// - `Decimal`: a JSON number with its exact digits, `19.99` (not an object of mantissa words);
///   NaN as the string `"NaN"`.
/// - `URL`: its absolute string (a URL relative to a base is resolved against it, RFC 3986).
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
        let name = _typeName(type, qualified: true)
        guard name.hasPrefix("Foundation") else { return .plain }
        switch name {
        case "FoundationEssentials.Date", "Foundation.Date": return .date
        case "FoundationEssentials.Decimal", "Foundation.Decimal": return .decimal
        case "FoundationEssentials.URL", "Foundation.URL": return .url
        case "FoundationEssentials.Data", "Foundation.Data": return .data
        default: return .plain
        }
    }
}

extension EncodingContext {
    /// Writes a value of one of Foundation's four types (see `FoundationValueEncoding`).
    func encodeFoundationValue<T: Encodable>(_ value: T, as writing: TypeTable.Writing) throws {
        let output = self.output
        if writing == .decimal {
            let text = String(describing: value)
            if JSONNumberSyntax.isValid(text) {
                var digits = text
                digits.withUTF8 { output.append(UnsafeRawBufferPointer($0)) }
            } else {
                output.appendString(text)
            }
            return
        }
        let mark = output.count
        try encodeComposite(value)
        let written = Array(output.bytes(from: mark))
        let text: String?
        switch writing {
        case .date: text = written.withUnsafeBytes(RFC3339Timestamp.init(secondsSinceReferenceDate:))?.text
        case .url: text = URLParts(json: written)?.absoluteString
        case .data: text = ByteArrayText.bytes(of: written).map(Base64.encode)
        default: text = nil
        }
        guard let text else { return }  // not what the type usually writes: kept as written
        output.count = mark
        output.appendString(text)
    }
}
