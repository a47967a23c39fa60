/// The byte buffer behind `JSONPrinter`. Recursion depth is the value's nesting depth, which the
/// parser bounds by `JSONParser.maximumDepth`.
struct JSONWriter {
    private var bytes: [UInt8] = []
    private let indent: Int?
    private let terminalSafe: Bool

    init(indent: Int?, terminalSafe: Bool) {
        self.indent = indent
        self.terminalSafe = terminalSafe
        bytes.reserveCapacity(256)
    }

    func text() -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    mutating func write(_ value: JSONValue, level: Int) {
        switch value {
        case .null: append("null")
        case .bool(let bool): append(bool ? "true" : "false")
        case .number(let text): appendRaw(text)
        case .string(let string): writeString(string)
        case .array(let elements):
            guard !elements.isEmpty else { return append("[]") }
            bytes.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(level + 1)
                write(element, level: level + 1)
            }
            newline(level)
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isEmpty else { return append("{}") }
            bytes.append(UInt8(ascii: "{"))
            for position in object.indices {
                let (key, member) = object[position]
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(level + 1)
                writeString(key)
                bytes.append(UInt8(ascii: ":"))
                if indent != nil { bytes.append(UInt8(ascii: " ")) }
                write(member, level: level + 1)
            }
            newline(level)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private mutating func newline(_ level: Int) {
        guard let indent else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * level))
    }

    private mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func appendRaw(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func writeString(_ string: String) {
        var string = string
        string.withUTF8 { writeEscaped($0) }
    }

    private mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        var offset = 0
        let count = utf8.count
        while offset < count {
            let byte = utf8[offset]
            if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                offset &+= 1
                continue
            }
            var length = 1
            var codePoint: UInt32? = nil
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0..<0x20:
                codePoint = UInt32(byte)
            case 0x7F where terminalSafe:
                codePoint = 0x7F
            case 0xC2 where terminalSafe && offset + 1 < count && (0x80...0x9F).contains(utf8[offset + 1]):
                codePoint = UInt32(utf8[offset + 1])
                length = 2
            case 0xE2
            where terminalSafe && offset + 2 < count && utf8[offset + 1] == 0x80
                && (utf8[offset + 2] == 0xA8 || utf8[offset + 2] == 0xA9):
                codePoint = 0x2000 | UInt32(utf8[offset + 2] - 0x80)
                length = 3
            default:
                break
            }
            guard let codePoint else {
                offset &+= 1
                continue
            }
            if offset > runStart {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<offset]))
            }
            appendEscape(codePoint)
            offset &+= length
            runStart = offset
        }
        if count > runStart {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(_ codePoint: UInt32) {
        let short: UInt8? =
            switch codePoint {
            case 0x22: UInt8(ascii: "\"")
            case 0x5C: UInt8(ascii: "\\")
            case 0x08: UInt8(ascii: "b")
            case 0x0C: UInt8(ascii: "f")
            case 0x0A: UInt8(ascii: "n")
            case 0x0D: UInt8(ascii: "r")
            case 0x09: UInt8(ascii: "t")
            default: nil
            }
        bytes.append(UInt8(ascii: "\\"))
        if let short { return bytes.append(short) }
        let hexDigits: StaticString = "0123456789abcdef"
        bytes.append(UInt8(ascii: "u"))
        for shift in stride(from: 12, through: 0, by: -4) {
            bytes.append(hexDigits.utf8Start[Int(codePoint >> UInt32(shift) & 0xF)])
        }
    }
}
