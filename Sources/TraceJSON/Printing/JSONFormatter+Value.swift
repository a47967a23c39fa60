/// Writing a `JSONValue`: the walk behind `JSONPrinter` and `ValueText`.
extension JSONFormatter {
    /// Writes `value`, and stops (leaving the text unfinished) once the budget is spent.
    ///
    /// An object prints only the last member of each name, where the name is written (the last
    /// member wins, as everywhere; see `JSONObject`). A number text that is not a JSON number,
    /// which only a value built by hand can hold, is written as a string, so the output is
    /// always JSON. Recursion depth is the value's nesting depth, which the parser bounds by
    /// `JSONParser.maximumDepth`.
    mutating func write(_ value: JSONValue) {
        guard !isSpent else { return }
        switch value {
        case .null:
            literal("null")
        case .bool(let bool):
            literal(bool ? "true" : "false")
        case .number(let text):
            var text = text
            text.withUTF8 { utf8 in
                let bytes = UnsafeRawBufferPointer(utf8)
                if !JSONNumberText.isNumber(bytes) {
                    write(.string(String(decoding: utf8, as: UTF8.self)))
                } else if bytes.count > remaining {
                    cutNumber(bytes)
                } else {
                    number(bytes)
                }
            }
        case .string(let text):
            if text.utf8.count > remaining { cutString(text) } else { string(text) }
        case .array(let elements):
            openArray()
            for element in elements {
                write(element)
                if isSpent { return }
            }
            closeArray()
        case .object(let object):
            openObject()
            let members = object.mayRepeatNames ? ObjectMembers(object) : nil
            for position in object.indices where members?.isVisible(position) ?? true {
                let (key, member) = object[position]
                if key.utf8.count > remaining {
                    cutString(key)
                    return
                }
                name(key)
                write(member)
                if isSpent { return }
            }
            closeObject()
        }
    }
}
