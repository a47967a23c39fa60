@_spi(RewindInternals) internal import RewindSupport

/// Where a value sits inside an app state: the one path syntax that `diff` prints and that
/// `when`, `why` and `show` read.
///
/// A path is a list of components, each an object member's name, an array index, or an array
/// element named by its `id` member. It prints the way Swift code reaches into a value:
///
///     CatalogStore.loaded._0[3].title
///     CartStore.lines[id: "MUG"].quantity
///
/// A name that is a plain word (a letter or `_`, then letters, digits or `_`, as a Swift
/// identifier) is written after a dot; any other name, such as one with a space, a dot, a
/// bracket, a quote, one that starts with a digit, or the empty name, is written as a JSON
/// string in brackets: `CartStore.coupons["SPRING-10"]`, `Settings["2fa"]`. Indices are written
/// in brackets: `[3]`. The path with no component, the whole value, prints as `.`.
///
/// An element named by id is written `[id: "MUG"]` (a string id, as a JSON string) or
/// `[id: 42]` (an integer id): it is the first element of the array that is an object whose `id`
/// member is that id, wherever it sits, so the path follows the item when elements before it
/// are removed or inserted. `StateDiff` names changed elements this way when every element of
/// both arrays has an id and no two share one (see `StateDiff.changes(namingItemsByID:)`).
/// A JSON Pointer has no such form: `jsonPointer(in:)` turns ids into the indices they have in
/// a given state.
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
        /// The first element of an array that is an object whose `id` member is this id.
        case id(ItemID)
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
            case .id(let id):
                text += "[id: \(id)]"
            }
        }
        return text
    }

    /// The path as a JSON Pointer (RFC 6901), as JSON Patch uses: `/CartStore/lines/2/quantity`,
    /// the empty string for the whole value, `~` written `~0` and `/` written `~1` in names.
    ///
    /// A JSON Pointer cannot name an element by id: an `.id` component is written as the token
    /// `[id: "MUG"]` (its `description`), which points at no array element. Use
    /// `jsonPointer(in:)` to point at the element an id names in a given state.
    public var jsonPointer: String {
        var pointer = ""
        for component in components {
            pointer += "/"
            switch component {
            case .key(let key): pointer += JSONPointer.escape(key)
            case .index(let index): pointer += String(index)
            case .id(let id): pointer += JSONPointer.escape("[id: \(id)]")
            }
        }
        return pointer
    }

    /// The path as a JSON Pointer into `root`: each `.id` component becomes the index of the
    /// element it names there, as `resolve(in:)` finds it.
    /// - Throws: `StatePathError` when an id names no element of `root` (or the path leads
    ///   nowhere before it), saying which component.
    public func jsonPointer(in root: JSONValue) throws(StatePathError) -> String {
        try positions(in: root).jsonPointer
    }

    /// This path with each `.id` component replaced by the index of the element it names in
    /// `root`.
    /// - Throws: `StatePathError` when an id names no element of `root`.
    public func positions(in root: JSONValue) throws(StatePathError) -> StatePath {
        var result = self
        var value: JSONValue? = root
        for (position, component) in components.enumerated() {
            if case .id(let id) = component {
                guard case .array(let elements)? = value,
                    let index = elements.firstIndex(where: { ItemID(of: $0) == id })
                else {
                    let before =
                        position == 0 ? 0 : StatePath(Array(components[..<position])).description.unicodeScalars.count
                    throw StatePathError(
                        text: description, column: before + 1,
                        message:
                            "no element has id \(id) at \(StatePath(Array(components[...position]))) in this state; a JSON Pointer needs the element's index"
                    )
                }
                result.components[position] = .index(index)
            }
            value = value.flatMap { StatePath([component]).resolve(in: $0) }
        }
        return result
    }

    /// This path with each array index (or decimal name in an array) that selects an element of
    /// an array whose elements all have distinct ids (`ItemID.uniqueIDs`) replaced by that
    /// element's id, as found in `root`: `CartStore.lines[3].quantity` becomes
    /// `CartStore.lines[id: "MUG"].quantity` when the fourth line of `root` has the id `"MUG"`.
    /// The path then follows that item through states where it sits elsewhere, as `w` in
    /// `inspector step` follows the item under the cursor. Components past where the path leads
    /// nowhere in `root` are kept.
    public func followingItems(in root: JSONValue) -> StatePath {
        var result = self
        var value = root
        for (position, component) in components.enumerated() {
            if case .array(let elements) = value {
                let index: Int? =
                    switch component {
                    case .index(let index): index
                    case .key(let name): JSONPointer.arrayIndex(name)
                    case .id: nil
                    }
                if let index, elements.indices.contains(index), let ids = ItemID.uniqueIDs(of: elements) {
                    result.components[position] = .id(ids[index])
                }
            }
            guard let next = StatePath([component]).resolve(in: value) else { break }
            value = next
        }
        return result
    }

    /// The value this path leads to in `root`, or nil when it leads nowhere: a name missing
    /// from an object, an index out of range, an id no element has, or a step into a string,
    /// number, boolean or null. A name that is a plain decimal number (`lines.3`) selects an
    /// index in an array; an id selects the first element whose `id` member is that id.
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
            case (.id(let id), .array(let elements)):
                guard let element = elements.first(where: { ItemID(of: $0) == id }) else { return nil }
                value = element
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
        let found = ByteView.withBytes(of: text.bytes) { bytes in
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

    package static func isPlainName(_ name: String) -> Bool {
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
