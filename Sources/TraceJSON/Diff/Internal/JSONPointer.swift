/// JSON Pointer (RFC 6901) text: escaping, reading and array indices.
package enum JSONPointer {
    /// `name` as one reference token: `~` becomes `~0` and `/` becomes `~1`.
    static func escape(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return name }
        var escaped = ""
        escaped.reserveCapacity(name.utf8.count + 2)
        for character in name.unicodeScalars {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// Why a pointer cannot be read.
    package enum ReadError: Error {
        /// A pointer that is not empty must start with `/`.
        case missingSlash
        /// `~` must be followed by `0` or `1`.
        case badEscape(token: String)
    }

    /// The reference tokens of `pointer`, unescaped; none for the empty pointer (the whole
    /// document).
    package static func tokens(_ pointer: String) throws(ReadError) -> [String] {
        guard !pointer.isEmpty else { return [] }
        guard pointer.utf8.first == UInt8(ascii: "/") else { throw .missingSlash }
        var tokens: [String] = []
        for raw in pointer.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            let token = String(decoding: raw, as: UTF8.self)
            guard raw.contains(UInt8(ascii: "~")) else {
                tokens.append(token)
                continue
            }
            var unescaped = ""
            var scalars = token.unicodeScalars.makeIterator()
            while let scalar = scalars.next() {
                guard scalar == "~" else {
                    unescaped.unicodeScalars.append(scalar)
                    continue
                }
                switch scalars.next() {
                case "0": unescaped += "~"
                case "1": unescaped += "/"
                default: throw .badEscape(token: token)
                }
            }
            tokens.append(unescaped)
        }
        return tokens
    }

    /// The index a token names in an array: `0`, or digits without a leading zero, that fit
    /// in `Int`. nil for anything else (`-`, `01`, `+1`, `1.0`, a name).
    package static func arrayIndex(_ token: String) -> Int? {
        let utf8 = token.utf8
        guard let first = utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return nil }
        guard first != UInt8(ascii: "0") || utf8.count == 1 else { return nil }
        guard utf8.count <= 18 else { return nil }
        var value = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
