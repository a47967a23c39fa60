/// Writing a value of a `JSONText`, walked from its bytes: the same output as writing the
/// `JSONValue` it parses into (`write(_:)`), with no tree built. Strings are decoded and escaped
/// again, so the output is the printer's, whatever escapes the input used.
extension JSONFormatter {
    /// Writes `value` of `reader`'s text, and stops (leaving the text unfinished) once the budget
    /// is spent. An object prints only the last member of each name, where it stands.
    mutating func write(_ value: TextValue, in reader: JSONTextReader, _ scratch: inout JSONTextReader.Scratch) {
        guard !isSpent else { return }
        switch reader.kind(value) {
        case .null:
            literal("null")
        case .true:
            literal("true")
        case .false:
            literal("false")
        case .number:
            let text = UnsafeRawBufferPointer(reader.raw(value))
            if text.count > remaining { cutNumber(text) } else { number(text) }
        case .string:
            writeString(at: value.start, in: reader, isName: false, &scratch)
        case .array:
            openArray()
            for element in reader.elementSequence(of: value) {
                write(element, in: reader, &scratch)
                if isSpent { return }
            }
            closeArray()
        case .object:
            openObject()
            let members: [JSONTextReader.Member] =
                reader.containers[value.container].repeatsNames
                ? reader.visibleMembers(of: value, &scratch) : Array(reader.memberSequence(of: value))
            for member in members {
                writeString(at: member.name, in: reader, isName: true, &scratch)
                if isSpent { return }
                write(member.value, in: reader, &scratch)
                if isSpent { return }
            }
            closeObject()
        }
    }

    /// The string or name whose opening quote is at `start`, cut to the budget when too long.
    private mutating func writeString(
        at start: Int, in reader: JSONTextReader, isName: Bool, _ scratch: inout JSONTextReader.Scratch
    ) {
        reader.withText(ofStringAt: start, &scratch.text) { text in
            if text.count > remaining {
                cutString(LoneSurrogates.string(wtf8: text))
            } else if isName {
                name(wtf8: text)
            } else {
                string(wtf8: text)
            }
        }
    }
}
