/// Escaping for the few strings the inspector writes into the page's markup itself (the file
/// name, the app, case and store names in the machine graphs). Everything else from a trace
/// reaches the page as embedded JSON and is put into the DOM with `textContent`.
enum HTMLText {
    /// `text` safe as element content and as a quoted attribute value: `&`, `<`, `>`, `"` and
    /// `'` become character references, and control characters (which HTML forbids, NUL
    /// included) become U+FFFD so that a hostile name cannot corrupt the document.
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"), 0x7F:
            true
        default:
            byte < 0x20 && byte != 0x09 && byte != 0x0A
        }
    }
}
