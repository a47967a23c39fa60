import TraceJSON

/// A state path that may hold `[*]`, every element of an array (or member of an object) at that
/// point: what `inspector compare --ignore` and `GoldenTrace` take to leave a value out of a
/// comparison, such as a timestamp or an id that differs from run to run.
///
/// ```swift
/// let pattern = try StatePathPattern(parsing: "CartStore.lines[*].addedAt")
/// ```
///
/// Apart from `[*]`, the syntax is `StatePath`'s (that of `show --path` and `when`): it starts
/// with the store's name, `CartStore.lines[0].addedAt`, `Settings["2fa"]`, `CartStore.lines.0`.
public struct StatePathPattern: Hashable, Sendable, CustomStringConvertible {
    /// One step of a pattern.
    public enum Component: Hashable, Sendable {
        /// One object member or array element, as in `StatePath`.
        case path(StatePath.Component)
        /// Every element of an array, or every member of an object: `[*]`.
        case any
    }

    /// The steps from the app state's root (the store's name first).
    public var components: [Component]

    /// The pattern as written.
    public var description: String

    /// Reads a pattern: a `StatePath` in which `[*]` may stand for any index.
    /// - Throws: `StatePathError` for a path `StatePath` cannot read, and for the empty path,
    ///   which would leave out everything.
    public init(parsing text: String) throws(StatePathError) {
        var components: [Component] = []
        for piece in Self.pieces(of: text) {
            switch piece {
            case .any: components.append(.any)
            case .text(let part, let offset):
                guard !part.isEmpty else { continue }
                do {
                    components += try StatePath(parsing: part).components.map(Component.path)
                } catch {
                    throw StatePathError(text: text, column: error.column + offset, message: error.message)
                }
            }
        }
        guard !components.isEmpty else {
            throw StatePathError(
                text: text, column: 1,
                message: "the whole state cannot be ignored; name a value, such as CartStore.lines[*].addedAt")
        }
        self.components = components
        self.description = text
    }

    /// `value`, an app state (store name → state), without what the pattern matches: a
    /// matched object member is removed, a matched array element becomes `null` (so that the
    /// elements after it keep their places).
    public func removing(from value: JSONValue) -> JSONValue {
        Self.remove(components[...], from: value)
    }

    private static func remove(_ components: ArraySlice<Component>, from value: JSONValue) -> JSONValue {
        guard let first = components.first else { return value }
        let rest = components.dropFirst()
        switch (first, value) {
        case (.any, .object(let object)):
            guard !rest.isEmpty else { return .object(JSONObject()) }
            return .object(JSONObject(object.map { ($0.key, remove(rest, from: $0.value)) }))
        case (.any, .array(let elements)):
            return .array(elements.map { rest.isEmpty ? .null : remove(rest, from: $0) })
        case (.path(.key(let key)), .object(var object)):
            guard let member = object[key] else { return value }
            object.set(rest.isEmpty ? nil : remove(rest, from: member), forKey: key)
            return .object(object)
        case (.path(.key(let key)), .array(var elements)):
            guard let index = JSONPointer.arrayIndex(key), index < elements.count else { return value }
            elements[index] = rest.isEmpty ? .null : remove(rest, from: elements[index])
            return .array(elements)
        case (.path(.index(let index)), .array(var elements)):
            guard elements.indices.contains(index) else { return value }
            elements[index] = rest.isEmpty ? .null : remove(rest, from: elements[index])
            return .array(elements)
        default:
            return value
        }
    }

    /// A piece of a pattern's text: `[*]`, or text between them with its offset.
    private enum Piece {
        case any
        case text(String, offset: Int)
    }

    /// The text cut at each `[*]` that is not inside a quoted name (`["[*]"]` is a name).
    private static func pieces(of text: String) -> [Piece] {
        let characters = Array(text.unicodeScalars)
        var pieces: [Piece] = []
        var start = 0
        var index = 0
        var inString = false
        while index < characters.count {
            let character = characters[index]
            if inString {
                if character == "\\" {
                    index += 2
                    continue
                }
                if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "[", index + 2 < characters.count, characters[index + 1] == "*",
                characters[index + 2] == "]"
            {
                pieces.append(.text(String(String.UnicodeScalarView(characters[start..<index])), offset: start))
                pieces.append(.any)
                index += 3
                start = index
                continue
            }
            index += 1
        }
        pieces.append(.text(String(String.UnicodeScalarView(characters[start...])), offset: start))
        return pieces
    }
}
