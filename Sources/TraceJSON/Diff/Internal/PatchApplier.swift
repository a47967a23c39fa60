/// Applies one JSON Patch operation (RFC 6902 §4) to a document, in place.
///
/// Values are changed where they stand: each container on the way is taken out of its parent
/// before it is changed, so it is not shared and is not copied. Member names are matched by
/// their exact bytes, as RFC 6901 says, not by Swift's Unicode equivalence (`ObjectMembers`).
/// The result obeys the limits of a parsed state (`RebuiltStateSize`): an operation that would
/// nest it too deeply or make it too large does not apply.
enum PatchApplier {
    /// The operation being applied, for error messages.
    private struct Context {
        var position: Int
        var name: String
        var pointer: String

        func error(_ message: String) -> JSONPatchError {
            JSONPatchError(operation: position, message: "\(name) \(quoted(pointer)): \(message)")
        }
    }

    /// Applies `operation`, the one at `position` of its patch, to `document`, whose size `size`
    /// keeps (call `size.startPatch()` before a patch's first operation). On an error, throw
    /// `document` and `size` away: they may be partly changed.
    static func apply(
        _ operation: JSONValue, position: Int, to document: inout JSONValue, size: inout RebuiltStateSize
    ) throws(JSONPatchError) {
        guard case .object(let members) = operation else {
            throw JSONPatchError(
                operation: position,
                message:
                    "an operation is an object such as {\"op\":\"add\",\"path\":\"/a\",\"value\":1}, found \(operation.kindName)"
            )
        }
        guard let name = members["op"]?.stringValue else {
            throw JSONPatchError(
                operation: position,
                message: "the operation has no \"op\" string; use add, remove, replace, move, copy or test")
        }
        guard let pointer = members["path"]?.stringValue else {
            throw JSONPatchError(
                operation: position,
                message: "the \(quoted(name)) operation has no \"path\" string (a JSON Pointer such as \"/a/0\")")
        }
        let context = Context(position: position, name: name, pointer: pointer)
        let path = try tokens(pointer, context)
        func requiredValue() throws(JSONPatchError) -> JSONValue {
            guard let value = members["value"] else { throw context.error("the operation has no \"value\"") }
            return value
        }
        func requiredFrom() throws(JSONPatchError) -> [String] {
            guard let from = members["from"]?.stringValue else {
                throw context.error("the operation has no \"from\" string (a JSON Pointer such as \"/a/0\")")
            }
            return try tokens(from, context)
        }
        func checked(_ change: (inout RebuiltStateSize) throws(RebuiltStateSize.Excess) -> Void)
            throws(JSONPatchError)
        {
            do throws(RebuiltStateSize.Excess) {
                try change(&size)
            } catch {
                throw context.error(error.message)
            }
        }
        switch name {
        case "add":
            let value = try requiredValue()
            let outgoing = replacedByAdd(at: path, in: document)
            try checked { (size) throws(RebuiltStateSize.Excess) in
                try size.place(value, replacing: outgoing, pathLength: path.count, fromState: false)
            }
            try add(value, at: path, in: &document, context)
        case "remove":
            let removed = try remove(at: path, in: &document, context)
            size.remove(removed)
        case "replace":
            let value = try requiredValue()
            let outgoing = lookUp(path[...], in: document)
            try checked { (size) throws(RebuiltStateSize.Excess) in
                try size.place(value, replacing: outgoing, pathLength: path.count, fromState: false)
            }
            try replace(at: path, with: value, in: &document, context)
        case "move":
            let source = try requiredFrom()
            let isPrefix = path.count >= source.count && zip(source, path).allSatisfy { ExactName.sameBytes($0, $1) }
            if isPrefix && path.count == source.count {
                _ = try value(at: source, in: document, context)  // moving to where it is: no change
                return
            }
            if isPrefix {
                throw context.error("cannot move a value into itself")
            }
            let moved = try remove(at: source, in: &document, context)
            let outgoing = replacedByAdd(at: path, in: document)
            try checked { (size) throws(RebuiltStateSize.Excess) in
                try size.move(moved, fromLength: source.count, pathLength: path.count, replacing: outgoing)
            }
            try add(moved, at: path, in: &document, context)
        case "copy":
            let source = try requiredFrom()
            let copied = try value(at: source, in: document, context)
            let outgoing = replacedByAdd(at: path, in: document)
            try checked { (size) throws(RebuiltStateSize.Excess) in
                try size.place(copied, replacing: outgoing, pathLength: path.count, fromState: true)
            }
            try add(copied, at: path, in: &document, context)
        case "test":
            let expected = try requiredValue()
            let actual = try value(at: path, in: document, context)
            guard Equivalence.equal(actual, expected) else {
                throw context.error(
                    "test failed: the value is \(ValueText.line(actual, maxWidth: 60)), not \(ValueText.line(expected, maxWidth: 60))"
                )
            }
        default:
            throw JSONPatchError(
                operation: position,
                message: "unknown operation \(quoted(name)); use add, remove, replace, move, copy or test")
        }
    }

    private static func tokens(_ pointer: String, _ context: Context) throws(JSONPatchError) -> [String] {
        do {
            return try JSONPointer.tokens(pointer)
        } catch {
            switch error {
            case .missingSlash:
                throw context.error("the JSON Pointer \(quoted(pointer)) must be empty or start with \"/\"")
            case .badEscape(let token):
                throw context.error(
                    "in the JSON Pointer token \(quoted(token)), '~' must be followed by 0 (for '~') or 1 (for '/')")
            }
        }
    }

    private static func value(at path: [String], in document: JSONValue, _ context: Context) throws(JSONPatchError)
        -> JSONValue
    {
        var value = document
        for (depth, token) in path.enumerated() {
            switch value {
            case .object(let object):
                guard let member = ObjectMembers(object)[token] else {
                    throw missingMember(token, path, depth, context)
                }
                value = member
            case .array(let elements):
                value = elements[try existingIndex(token, elements.count, path, depth, context)]
            default:
                throw notContainer(value, path, depth, context)
            }
        }
        return value
    }

    /// The value an `add` at `path` replaces: the whole document for the path "", the member
    /// of an object it names; nil when it inserts (into an array, or a new member) or when
    /// the path is not there (the operation then fails).
    private static func replacedByAdd(at path: [String], in document: JSONValue) -> JSONValue? {
        guard let last = path.last else { return document }
        guard case .object(let object)? = lookUp(path.dropLast(), in: document) else { return nil }
        return ObjectMembers(object)[last]
    }

    /// The value at `path`, matched as `value(at:in:_:)` matches; nil when it is not there.
    static func lookUp(_ path: ArraySlice<String>, in document: JSONValue) -> JSONValue? {
        var value = document
        for token in path {
            switch value {
            case .object(let object):
                guard let member = ObjectMembers(object)[token] else { return nil }
                value = member
            case .array(let elements):
                guard let index = JSONPointer.arrayIndex(token), index < elements.count else { return nil }
                value = elements[index]
            default:
                return nil
            }
        }
        return value
    }

    /// Runs `body` on the container at `path` minus its last token, with that token.
    private static func withParent(
        of path: [String], depth: Int = 0, in value: inout JSONValue, _ context: Context,
        _ body: (inout JSONValue, String) throws(JSONPatchError) -> Void
    ) throws(JSONPatchError) {
        if depth == path.count - 1 { return try body(&value, path[depth]) }
        let token = path[depth]
        if var object = takeObject(&value) {
            guard var child = ObjectMembers(object)[token] else {
                value = .object(object)
                throw missingMember(token, path, depth, context)
            }
            set(.null, forKey: token, in: &object)
            try withParent(of: path, depth: depth + 1, in: &child, context, body)
            set(child, forKey: token, in: &object)
            value = .object(object)
        } else if var elements = takeArray(&value) {
            let index = try existingIndex(token, in: elements, puttingBackInto: &value, path, depth, context)
            var child = elements[index]
            elements[index] = .null
            try withParent(of: path, depth: depth + 1, in: &child, context, body)
            elements[index] = child
            value = .array(elements)
        } else {
            throw notContainer(value, path, depth, context)
        }
    }

    /// The object `value` holds, taken out (`value` is left null), or nil when it holds none.
    /// Taken out so that the caller holds its only reference and changes it in place: a `switch`
    /// over `value` whose case changes the payload keeps the subject alive for the whole case, so
    /// every change would copy the container (an array of a million elements, each time).
    static func takeObject(_ value: inout JSONValue) -> JSONObject? {
        guard case .object(let object) = value else { return nil }
        value = .null
        return object
    }

    /// The array `value` holds, taken out as `takeObject` takes an object.
    static func takeArray(_ value: inout JSONValue) -> [JSONValue]? {
        guard case .array(let elements) = value else { return nil }
        value = .null
        return elements
    }

    private static func add(_ newValue: JSONValue, at path: [String], in document: inout JSONValue, _ context: Context)
        throws(JSONPatchError)
    {
        guard !path.isEmpty else {
            document = newValue
            return
        }
        try withParent(of: path, in: &document, context) {
            (parent: inout JSONValue, token: String) throws(JSONPatchError) in
            if var object = takeObject(&parent) {
                set(newValue, forKey: token, in: &object)
                parent = .object(object)
            } else if var elements = takeArray(&parent) {
                let index: Int
                if token == "-" {
                    index = elements.count
                } else if let given = JSONPointer.arrayIndex(token), given <= elements.count {
                    index = given
                } else {
                    let count = elements.count
                    parent = .array(elements)
                    throw context.error(
                        "the array at \(quoted(pointer(path.dropLast()))) has \(count) elements, so add takes an index from 0 to \(count) or \"-\", not \(quoted(token))"
                    )
                }
                elements.insert(newValue, at: index)
                parent = .array(elements)
            } else {
                throw notContainer(parent, path, path.count - 1, context)
            }
        }
    }

    private static func replace(
        at path: [String], with newValue: JSONValue, in document: inout JSONValue, _ context: Context
    ) throws(JSONPatchError) {
        guard !path.isEmpty else {
            document = newValue
            return
        }
        try withParent(of: path, in: &document, context) {
            (parent: inout JSONValue, token: String) throws(JSONPatchError) in
            if var object = takeObject(&parent) {
                guard ObjectMembers(object)[token] != nil else {
                    parent = .object(object)
                    throw missingMember(token, path, path.count - 1, context)
                }
                set(newValue, forKey: token, in: &object)
                parent = .object(object)
            } else if var elements = takeArray(&parent) {
                let index = try existingIndex(
                    token, in: elements, puttingBackInto: &parent, path, path.count - 1, context)
                elements[index] = newValue
                parent = .array(elements)
            } else {
                throw notContainer(parent, path, path.count - 1, context)
            }
        }
    }

    private static func remove(at path: [String], in document: inout JSONValue, _ context: Context)
        throws(JSONPatchError) -> JSONValue
    {
        guard !path.isEmpty else {
            // RFC 6902 only removes a location inside the document; `replace` with "" replaces it.
            throw context.error("cannot remove the whole document; use replace with the path \"\" to replace it")
        }
        var removed = JSONValue.null
        try withParent(of: path, in: &document, context) {
            (parent: inout JSONValue, token: String) throws(JSONPatchError) in
            if var object = takeObject(&parent) {
                guard let member = ObjectMembers(object)[token] else {
                    parent = .object(object)
                    throw missingMember(token, path, path.count - 1, context)
                }
                removed = member
                set(nil, forKey: token, in: &object)
                parent = .object(object)
            } else if var elements = takeArray(&parent) {
                let index = try existingIndex(
                    token, in: elements, puttingBackInto: &parent, path, path.count - 1, context)
                removed = elements.remove(at: index)
                parent = .array(elements)
            } else {
                throw notContainer(parent, path, path.count - 1, context)
            }
        }
        return removed
    }

    /// `JSONObject.set(_:forKey:)` matching `key` by its exact bytes: replaces the last member
    /// so named where it stands or appends one; nil removes every member so named.
    static func set(_ value: JSONValue?, forKey key: String, in object: inout JSONObject) {
        if ObjectMembers.isASCII(key) && object.keys.allSatisfy(ObjectMembers.isASCII) {
            // All ASCII: Swift's matching is exact, and `set` keeps the object's index.
            return object.set(value, forKey: key)
        }
        var members = Array(object)
        if let value {
            if let position = ObjectMembers(object).position(of: key) {
                members[position].value = value
            } else {
                members.append((key, value))
            }
        } else {
            members.removeAll { ExactName.sameBytes($0.key, key) }
        }
        object = JSONObject(members)
    }

    /// `existingIndex` in `elements`, an array taken out of `parent` (`takeArray`): when the
    /// token names no element, the array is put back first, so that an error leaves the value
    /// as it was.
    private static func existingIndex(
        _ token: String, in elements: [JSONValue], puttingBackInto parent: inout JSONValue, _ path: [String],
        _ depth: Int, _ context: Context
    ) throws(JSONPatchError) -> Int {
        do throws(JSONPatchError) {
            return try existingIndex(token, elements.count, path, depth, context)
        } catch {
            parent = .array(elements)
            throw error
        }
    }

    private static func existingIndex(_ token: String, _ count: Int, _ path: [String], _ depth: Int, _ context: Context)
        throws(JSONPatchError) -> Int
    {
        guard let index = JSONPointer.arrayIndex(token) else {
            throw context.error(
                "the array at \(quoted(pointer(path.prefix(depth)))) is indexed by a number such as 0 or 12 (no sign, no leading zero), not \(quoted(token))"
            )
        }
        guard index < count else {
            throw context.error(
                "the array at \(quoted(pointer(path.prefix(depth)))) has \(count) elements, so it has no index \(index)"
            )
        }
        return index
    }

    private static func missingMember(_ token: String, _ path: [String], _ depth: Int, _ context: Context)
        -> JSONPatchError
    {
        context.error("the object at \(quoted(pointer(path.prefix(depth)))) has no member \(quoted(token))")
    }

    private static func notContainer(_ value: JSONValue, _ path: [String], _ depth: Int, _ context: Context)
        -> JSONPatchError
    {
        context.error(
            "the value at \(quoted(pointer(path.prefix(depth)))) is a \(value.kindName), which has no member \(quoted(path[depth]))"
        )
    }

    private static func pointer(_ tokens: some Sequence<String>) -> String {
        tokens.map { "/" + JSONPointer.escape($0) }.joined()
    }

    private static func quoted(_ text: String) -> String {
        JSONPrinter.quoted(text, terminalSafe: true)
    }
}
