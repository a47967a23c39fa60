/// Where a value sits inside an app state: the one path syntax that `diff` prints and that
/// `when`, `why` and `show` read.
///
/// A path is a list of components, each an object member's name or an array index. It prints
/// the way Swift code reaches into a value:
///
///     CatalogStore.loaded._0[3].title
///
/// A name that is a plain word (a letter or `_`, then letters, digits or `_`, as a Swift
/// identifier) is written after a dot; any other name, such as one with a space, a dot, a
/// bracket, a quote, one that starts with a digit, or the empty name, is written as a JSON
/// string in brackets: `CartStore.coupons["SPRING-10"]`, `Settings["2fa"]`. Indices are written
/// in brackets: `[3]`. The path with no component, the whole value, prints as `.`.
///
/// `init(parsing:)` reads everything `description` prints, and also the dotted form people
/// type, `CartStore.lines.1234.quantity`: a number after a dot is read as the name `"1234"`,
/// which `resolve(in:)` takes as a member name in an object and as an index in an array.
public struct StatePath: Hashable, Sendable, CustomStringConvertible {
    /// One step into a value.
    public enum Component: Hashable, Sendable {
        /// An object member, by name. When the value is an array, a name that is a decimal
        /// number without sign or leading zero (`"3"`) selects that index.
        case key(String)
        /// An array element, by its 0-based position.
        case index(Int)
    }

    /// The steps from the root, outermost first.
    public var components: [Component]

    /// A path of these components; with none, the whole value.
    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// Reads a path written as `description` prints it, or in the dotted form
    /// `CartStore.lines.1234.quantity`; `.` and the empty text are the whole value.
    /// A leading dot is allowed (`.CartStore.lines`), as jq writes paths.
    ///
    /// - Throws: `StatePathError` naming the column of the first problem and what to write
    ///   instead, such as a bracket left open or a space in a name that is not quoted.
    public init(parsing text: String) throws(StatePathError) {
        var parser = StatePathParser(text)
        self.init(try parser.parse())
    }

    /// This path with `component` added at the end.
    public func appending(_ component: Component) -> StatePath {
        var path = self
        path.components.append(component)
        return path
    }

    /// The path as it is printed in diffs: `CartStore.lines[2].quantity`, `.` for the whole
    /// value. Member names that are not plain words are JSON strings in brackets, their
    /// control characters (and those a terminal acts on) escaped, so the text is safe to print.
    public var description: String {
        guard !components.isEmpty else { return "." }
        var text = ""
        for (position, component) in components.enumerated() {
            switch component {
            case .key(let key):
                if StatePath.isPlainName(key) {
                    if position > 0 { text += "." }
                    text += key
                } else {
                    text += "[" + JSONPrinter.quoted(key, terminalSafe: true) + "]"
                }
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// The path as a JSON Pointer (RFC 6901), as JSON Patch uses: `/CartStore/lines/2/quantity`,
    /// the empty string for the whole value, `~` written `~0` and `/` written `~1` in names.
    public var jsonPointer: String {
        var pointer = ""
        for component in components {
            pointer += "/"
            switch component {
            case .key(let key): pointer += JSONPointer.escape(key)
            case .index(let index): pointer += String(index)
            }
        }
        return pointer
    }

    /// The value this path leads to in `root`, or nil when it leads nowhere: a name missing
    /// from an object, an index out of range, or a step into a string, number, boolean or null.
    /// A name that is a plain decimal number (`lines.3`) selects an index in an array.
    public func resolve(in root: JSONValue) -> JSONValue? {
        var value = root
        for component in components {
            switch (component, value) {
            case (.key(let key), .object(let object)):
                guard let member = object[key] else { return nil }
                value = member
            case (.key(let key), .array(let elements)):
                guard let index = JSONPointer.arrayIndex(key), index < elements.count else { return nil }
                value = elements[index]
            case (.index(let index), .array(let elements)):
                guard elements.indices.contains(index) else { return nil }
                value = elements[index]
            default:
                return nil
            }
        }
        return value
    }

    /// The value this path leads to in the value of `text`, as `resolve(in:)` finds it in the
    /// parsed value, found by walking the bytes (siblings are skipped, nothing is built); nil
    /// when the path leads nowhere.
    public func resolve(in text: JSONText) -> JSONText? {
        guard !components.isEmpty else { return text }
        let found = text.bytes.withUnsafeBytes { bytes in
            ValueLocator.locate(components[...], in: bytes, range: 0..<bytes.count)
        }
        return found.flatMap { try? JSONText(validating: text.bytes[$0]) }
    }

    /// Whether `name` prints after a dot: a letter or `_`, then letters, digits or `_`
    /// (Unicode letters included, as in Swift identifiers), and nothing else.
    /// `a`–`z` or `A`–`Z`: the ASCII scalars that are alphabetic, without the property lookup.
    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    static func isPlainName(_ name: String) -> Bool {
        var scalars = name.unicodeScalars.makeIterator()
        guard let first = scalars.next() else { return false }
        guard first == "_" || (first.isASCII ? isASCIILetter(first) : first.properties.isXIDStart) else {
            return false
        }
        while let scalar = scalars.next() {
            if scalar.isASCII {
                guard scalar == "_" || isASCIILetter(scalar) || ("0"..."9").contains(scalar) else {
                    return false
                }
            } else {
                // Invisible joiners are identifier characters too, but would hide in print.
                guard scalar.properties.isXIDContinue, scalar.properties.generalCategory != .format else {
                    return false
                }
            }
        }
        return true
    }
}
