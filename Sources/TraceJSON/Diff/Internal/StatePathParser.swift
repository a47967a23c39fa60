/// Reads the text of a `StatePath`, one Unicode scalar at a time.
struct StatePathParser {
    private let text: String
    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(_ text: String) {
        self.text = text
        scalars = Array(text.unicodeScalars)
    }

    mutating func parse() throws(StatePathError) -> [StatePath.Component] {
        var components: [StatePath.Component] = []
        // `.` alone is the whole value; a leading dot is allowed before the first step.
        if peek == "." {
            position += 1
            if position == scalars.count { return [] }
            if peek != "[" { components.append(.key(try name())) }
        } else if position < scalars.count, peek != "[" {
            components.append(.key(try name()))
        }
        while position < scalars.count {
            switch scalars[position] {
            case ".":
                position += 1
                components.append(.key(try name()))
            case "[":
                components.append(try bracket())
            default:
                throw error("expected '.' or '[' after \(describe(components.last)), found \(found(scalars[position]))")
            }
        }
        return components
    }

    private var peek: Unicode.Scalar? {
        position < scalars.count ? scalars[position] : nil
    }

    /// A name written bare: everything up to the next `.` or `[`.
    private mutating func name() throws(StatePathError) -> String {
        let start = position
        var name = ""
        while let scalar = peek, scalar != ".", scalar != "[" {
            if scalar == "]" || scalar == "\"" || scalar.properties.isWhitespace || isControl(scalar) {
                throw error(
                    "\(found(scalar)) cannot be part of a bare name; write such a name as a JSON string in brackets, as in [\"my key\"]"
                )
            }
            name.unicodeScalars.append(scalar)
            position += 1
        }
        guard position > start else {
            let what = peek.map { "found \(found($0))" } ?? "found the end of the path"
            throw error("expected a name after '.', \(what); a path looks like CartStore.lines[2].quantity")
        }
        return name
    }

    /// `[3]`, `["name"]`, `[id: "MUG"]` or `[id: 42]`.
    private mutating func bracket() throws(StatePathError) -> StatePath.Component {
        let open = position
        position += 1
        let component: StatePath.Component
        switch peek {
        case let scalar? where ("0"..."9").contains(scalar):
            component = .index(try index())
        case "\""?:
            component = .key(try quotedName())
        case "i"? where scalars[position...].starts(with: "id:".unicodeScalars):
            position += 3
            while peek == " " { position += 1 }
            component = .id(try itemID())
        case let scalar?:
            throw error(
                "expected an index such as [3], a quoted name such as [\"my key\"] or an id such as [id: \"MUG\"] after '[', found \(found(scalar))"
            )
        case nil:
            throw error(
                "expected an index such as [3], a quoted name such as [\"my key\"] or an id such as [id: \"MUG\"] after '[', found the end of the path"
            )
        }
        guard peek == "]" else {
            let what = peek.map { "found \(found($0))" } ?? "found the end of the path"
            throw error("expected ']' to close the '[' at column \(open + 1), \(what)")
        }
        position += 1
        return component
    }

    /// The id after `[id:`: a JSON string or an integer.
    private mutating func itemID() throws(StatePathError) -> StatePath.ItemID {
        switch peek {
        case "\""?:
            return .string(try quotedName())
        case let scalar? where scalar == "-" || ("0"..."9").contains(scalar):
            let start = position
            position += 1
            while let digit = peek, ("0"..."9").contains(digit) { position += 1 }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars[start..<position])
            guard let integer = Int(text) else {
                position = start
                throw error(
                    "an id is a JSON string or an integer that fits in 64 bits, as in [id: \"MUG\"] or [id: 42]")
            }
            return .integer(integer)
        default:
            throw error(
                "expected an id after 'id:', a JSON string or an integer as in [id: \"MUG\"] or [id: 42], found \(peek.map(found) ?? "the end of the path")"
            )
        }
    }

    private mutating func index() throws(StatePathError) -> Int {
        let start = position
        var value = 0
        while let scalar = peek, ("0"..."9").contains(scalar) {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(scalar.value - 48))
            if overflow1 || overflow2 {
                position = start
                throw error("the index is too large; an index counts the elements of an array from 0")
            }
            value = sum
            position += 1
        }
        return value
    }

    /// A JSON string, read by `JSONParser` so that escapes mean what they mean in JSON.
    private mutating func quotedName() throws(StatePathError) -> String {
        let start = position
        position += 1
        var escaped = false
        while let scalar = peek {
            position += 1
            if escaped {
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "\"" {
                var literal = ""
                literal.unicodeScalars.append(contentsOf: scalars[start..<position])
                do {
                    let value = try JSONParser.parse(literal)
                    if case .string(let name) = value { return name }
                } catch {
                    position = start
                    throw self.error("the quoted name is not a valid JSON string: \(error.message)")
                }
            }
        }
        position = start
        throw self.error("the quoted name is not closed; end it with \"]")
    }

    private func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.properties.generalCategory == .format
    }

    private func found(_ scalar: Unicode.Scalar) -> String {
        if scalar == " " { return "a space" }
        if isControl(scalar) || scalar.properties.isWhitespace {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        return JSONPrinter.quoted(String(scalar), terminalSafe: true)
    }

    private func describe(_ component: StatePath.Component?) -> String {
        switch component {
        case .index(let index)?: return "[\(index)]"
        case .id(let id)?: return "[id: \(id)]"
        case .key(let key)?: return StatePath([.key(key)]).description
        case nil: return "the start"
        }
    }

    private func error(_ message: String) -> StatePathError {
        StatePathError(text: text, column: position + 1, message: message)
    }
}
