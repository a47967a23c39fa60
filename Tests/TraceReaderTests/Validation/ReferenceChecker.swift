@testable import TraceJSON
@testable import TraceReader

/// A second, plain implementation of the validity rules of shared/TRACE_FORMAT.md over parsed
/// `JSONValue`s: slow and simple, written from the format page (versions 1 and 2, restores,
/// machines carried by registers, rules over time, patches, which it applies with a JSON Patch
/// of its own), to compare the validator with on traces that neither of them wrote (recorded or
/// generated, then mutated at random). It shares nothing with the validator but the JSON parser.
///
/// Where the page leaves a choice, it makes the validator's (the "Decision:" notes of
/// `ValidationRun`): the problems of a line in the order of the page's table, a `within` rule
/// needs `case`, an entry starts over at every entering event.
enum ReferenceChecker {
    typealias Found = ValidationTesting.Found

    /// What the checker found: the problems in order, and the number of events.
    struct Result {
        var problems: [Found] = []
        var events = 0
    }

    static func problems(_ bytes: [UInt8], spec: String? = nil) -> [Found] {
        check(bytes, spec: spec).problems
    }

    // MARK: Shapes

    struct Machine {
        var cases: Set<String> = []
        var allowed: Set<String> = []
    }

    /// A machine, or nil when `value` is not shaped as one.
    static func machine(_ value: JSONValue) -> Machine? {
        guard case .object(let object) = value, case .string(let initial)? = object["initial"],
            case .object(let table)? = object["transitions"]
        else { return nil }
        var result = Machine()
        var targets: [String] = []
        for (source, list) in table {
            guard !result.cases.contains(source), case .array(let values) = list else { return nil }
            result.cases.insert(source)
            for target in values {
                guard case .string(let name) = target else { return nil }
                targets.append(name)
                result.allowed.insert(source + "→" + name)
            }
        }
        guard result.cases.contains(initial), targets.allSatisfy(result.cases.contains) else { return nil }
        return result
    }

    static func machines(_ value: JSONValue) -> [String: Machine]? {
        guard case .object(let object) = value else { return nil }
        var result: [String: Machine] = [:]
        for (store, machineValue) in object {
            guard result[store] == nil, let machine = machine(machineValue) else { return nil }
            result[store] = machine
        }
        return result
    }

    struct Rule {
        var store: String
        var caseName = ""
        var events: Int?
        var seconds: Double?
        var notAtEnd: [String]?
    }

    static func rules(_ value: JSONValue) -> [Rule]? {
        guard case .array(let values) = value else { return nil }
        var result: [Rule] = []
        for value in values {
            guard case .object(let object) = value, case .string(let store)? = object["store"] else { return nil }
            var rule = Rule(store: store)
            switch (object["within"], object["notAtEnd"]) {
            case (.object(let within)?, nil):
                guard case .string(let caseName)? = object["case"] else { return nil }
                rule.caseName = caseName
                if let events = within["events"] {
                    guard case .number(let text) = events, let count = Int(text), count >= 1 else { return nil }
                    rule.events = count
                }
                if let seconds = within["seconds"] {
                    guard case .number(let text) = seconds else { return nil }
                    rule.seconds = Double(text)
                }
                guard rule.events != nil || rule.seconds != nil else { return nil }
            case (nil, .array(let cases)?):
                var names: [String] = []
                for name in cases {
                    guard case .string(let text) = name else { return nil }
                    names.append(text)
                }
                rule.notAtEnd = names
            default:
                return nil
            }
            result.append(rule)
        }
        return result
    }

    /// Whether `value` is a version 2 patch: an array of objects with a string `op` and `path`.
    static func isPatch(_ value: JSONValue) -> Bool {
        guard case .array(let operations) = value else { return false }
        return operations.allSatisfy { operation in
            guard case .object(let object) = operation, case .string? = object["op"], case .string? = object["path"]
            else { return false }
            return true
        }
    }

    // MARK: The check

    /// Per store: what the checker follows.
    private struct Store {
        var seen = false
        var current: String?
        var registerMachine: Machine?
        var lastLine = 0
        var lastSeq = 0
        var state: JSONValue?
    }

    private struct Entry {
        var active = false
        var count = 0
        var enteredAt: Double?
        var reported = false
    }

    private static let order: [ProblemKind] = [
        .notATrace, .malformed, .truncated, .seq, .unregistered, .unknownCase, .discontinuity, .illegal, .unchecked,
        .overdue, .unresolved, .badPatch, .causeLoop,
    ]

    static func check(_ bytes: [UInt8], spec: String? = nil) -> Result {
        var lines: [(text: ArraySlice<UInt8>, terminated: Bool)] = []
        var start = 0
        for index in bytes.indices where bytes[index] == 0x0A {
            lines.append((bytes[start..<index], true))
            start = index + 1
        }
        if start < bytes.count { lines.append((bytes[start...], false)) }

        let notATrace = Result(problems: [Found(.notATrace, line: 1)])
        guard let first = lines.first, case .object(let header)? = try? JSONParser.parse(first.text),
            header["type"] == .string("header"), header["format"] == .string("rewind-trace"),
            case .number(let versionText)? = header["version"], versionText == "1" || versionText == "2",
            let headerMachines = header["machines"].flatMap(machines)
        else { return notATrace }
        let version = versionText == "2" ? 2 : 1
        var ruleList: [Rule] = []
        if let value = header["rules"] {
            guard let parsed = rules(value) else { return notATrace }
            ruleList = parsed
        }
        var specMachines: [String: Machine] = [:]
        if let spec, let value = try? JSONParser.parse(spec) {
            specMachines = value["machines"].flatMap(machines) ?? [:]
            if let value = value["rules"] { ruleList = rules(value) ?? [] }
        }

        var result = Result()
        var found: [Found] = []
        var previous = 0
        var checkSeq = true
        var stores: [String: Store] = [:]
        var entries = Array(repeating: Entry(), count: ruleList.count)
        let stringKeys = ["type", "store", "action", "case", "from", "to", "source", "trace"]
        for (offset, line) in lines.enumerated().dropFirst() {
            let number = offset + 1
            if line.text.isEmpty || Array(line.text) == [0x0D] { continue }
            guard case .object(let event)? = try? JSONParser.parse(line.text) else {
                if !line.terminated {
                    found.append(Found(.truncated, line: number))
                } else {
                    found.append(Found(.malformed, line: number))
                    checkSeq = false
                }
                continue
            }
            let type = event["type"]?.stringValue
            let seq = event["seq"]?.intValue
            let storeName = event["store"]?.stringValue

            // Types, whatever the event's type.
            var wellFormed = type != nil && seq != nil
            for key in stringKeys where event[key] != nil && event[key]?.stringValue == nil { wellFormed = false }
            for key in ["seq", "cause", "step"] where event[key] != nil && event[key]?.intValue == nil {
                wellFormed = false
            }
            if let elapsed = event["elapsed"], case .number = elapsed {
            } else if event["elapsed"] != nil {
                wellFormed = false
            }
            if let changed = event["changed"], changed.boolValue == nil { wellFormed = false }
            if let args = event["args"], args.objectValue == nil { wellFormed = false }
            if let stack = event["stack"] {
                if case .array(let frames) = stack, frames.allSatisfy({ $0.stringValue != nil }) {
                } else {
                    wellFormed = false
                }
            }
            var carried: Machine?
            if let value = event["machine"] {
                carried = machine(value)
                if carried == nil { wellFormed = false }
            }
            if version == 2, let patch = event["patch"], !isPatch(patch) { wellFormed = false }

            // The store's machine at this event.
            var storeMachine: Machine?
            if let storeName {
                if let machine = specMachines[storeName] {
                    storeMachine = machine
                } else if type == "register" {
                    storeMachine = carried ?? headerMachines[storeName]
                } else {
                    storeMachine = stores[storeName]?.registerMachine ?? headerMachines[storeName]
                }
            }
            var required: [String] = []
            switch type {
            case "register", "restore":
                required = ["store", "state"] + (storeMachine != nil ? ["case"] : [])
            case "transition":
                required = ["store", "action", "changed"] + (storeMachine != nil ? ["from", "to"] : [])
                if version == 1 {
                    required.append("state")
                } else if (event["state"] != nil) == (event["patch"] != nil) {
                    wellFormed = false
                }
            default:
                break
            }
            for key in required where event[key] == nil { wellFormed = false }
            guard wellFormed, let type, let seq else {
                found.append(Found(.malformed, line: number, seq: seq, store: storeName))
                checkSeq = false
                continue
            }
            result.events += 1
            if checkSeq && (previous == Int.max || seq != previous + 1) {
                found.append(Found(.seq, line: number, seq: seq, store: storeName))
            }
            previous = seq
            checkSeq = true
            let elapsed = event["elapsed"].flatMap { value -> Double? in
                guard case .number(let text) = value else { return nil }
                return Double(text)
            }

            // Rules over time: the clocks, before the event changes anything.
            var overdue: [Int] = []
            if let elapsed {
                for (index, rule) in ruleList.enumerated() {
                    guard let seconds = rule.seconds, entries[index].active, !entries[index].reported,
                        let entered = entries[index].enteredAt, elapsed - entered > seconds
                    else { continue }
                    entries[index].reported = true
                    overdue.append(index)
                }
            }

            guard let storeName, ["register", "restore", "transition"].contains(type) else {
                found += overdue.map { Found(.overdue, line: number, seq: seq, store: ruleList[$0].store) }
                continue
            }
            var store = stores[storeName] ?? Store()
            let caseName = event["case"]?.stringValue
            let from = event["from"]?.stringValue
            let to = event["to"]?.stringValue
            switch type {
            case "register", "restore":
                if type == "register" {
                    store.registerMachine = carried
                } else if !store.seen {
                    found.append(Found(.unregistered, line: number, seq: seq, store: storeName))
                }
                store.seen = true
                if let caseName {
                    if let storeMachine {
                        if !storeMachine.cases.contains(caseName) {
                            found.append(Found(.unknownCase, line: number, seq: seq, store: storeName))
                        }
                    } else {
                        found.append(Found(.unchecked, line: number, seq: seq, store: storeName))
                    }
                }
                store.current = caseName
            default:
                if !store.seen {
                    found.append(Found(.unregistered, line: number, seq: seq, store: storeName))
                    store.seen = true
                } else if let storeMachine, let from, let to {
                    if !storeMachine.cases.contains(from) || !storeMachine.cases.contains(to) {
                        found.append(Found(.unknownCase, line: number, seq: seq, store: storeName))
                    } else {
                        if store.current != from {
                            found.append(Found(.discontinuity, line: number, seq: seq, store: storeName))
                        }
                        if !storeMachine.allowed.contains(from + "→" + to) {
                            found.append(Found(.illegal, line: number, seq: seq, store: storeName))
                        }
                    }
                }
                store.current = to
            }
            store.lastLine = number
            store.lastSeq = seq

            // Rules over time: entering, staying, leaving.
            for (index, rule) in ruleList.enumerated() where rule.store == storeName && rule.notAtEnd == nil {
                guard let storeMachine, storeMachine.cases.contains(rule.caseName) else {
                    entries[index] = Entry()
                    continue
                }
                let enters: Bool
                if type == "transition" {
                    if to != rule.caseName {
                        entries[index] = Entry()
                        continue
                    }
                    enters = from != rule.caseName
                    if !enters && entries[index].active {
                        entries[index].count += 1
                        if let events = rule.events, entries[index].count >= events, !entries[index].reported {
                            entries[index].reported = true
                            overdue.append(index)
                        }
                    }
                } else {
                    enters = caseName == rule.caseName
                    if !enters { entries[index] = Entry() }
                }
                if enters { entries[index] = Entry(active: true, count: 0, enteredAt: elapsed) }
            }
            found += overdue.sorted().map { Found(.overdue, line: number, seq: seq, store: ruleList[$0].store) }

            // Version 2: states and patches.
            if version == 2 {
                if let state = event["state"] {
                    store.state = state
                } else if type == "transition", let patch = event["patch"], let before = store.state {
                    store.state = apply(patch, to: before)
                    if store.state == nil { found.append(Found(.badPatch, line: number, seq: seq, store: storeName)) }
                }
            }
            stores[storeName] = store
        }

        for rule in ruleList {
            guard let cases = rule.notAtEnd, let store = stores[rule.store], store.lastLine > 0,
                let current = store.current
            else { continue }
            let storeMachine =
                specMachines[rule.store] ?? store.registerMachine ?? headerMachines[rule.store]
            guard let storeMachine, storeMachine.cases.contains(current), cases.contains(current) else { continue }
            found.append(Found(.unresolved, line: store.lastLine, seq: store.lastSeq, store: rule.store))
        }
        // In line order; on one line, in the order of the page's table.
        result.problems = found.enumerated().sorted {
            let left = ($0.element.line, order.firstIndex(of: $0.element.kind)!, $0.offset)
            let right = ($1.element.line, order.firstIndex(of: $1.element.kind)!, $1.offset)
            return left < right
        }.map(\.element)
        return result
    }

    // MARK: A small JSON Patch (RFC 6902)

    /// `document` with `patch` applied, or nil when an operation does not apply.
    static func apply(_ patch: JSONValue, to document: JSONValue) -> JSONValue? {
        guard case .array(let operations) = patch else { return nil }
        var result = document
        for operation in operations {
            guard case .object(let object) = operation, let op = object["op"]?.stringValue,
                let path = object["path"]?.stringValue.flatMap(pointer)
            else { return nil }
            switch op {
            case "add":
                guard let value = object["value"], let added = add(value, at: path, in: result) else { return nil }
                result = added
            case "remove":
                guard let removed = remove(at: path, in: result) else { return nil }
                result = removed.document
            case "replace":
                guard let value = object["value"], get(path, in: result) != nil,
                    let replaced = add(value, at: path, in: result, replacing: true)
                else { return nil }
                result = replaced
            case "move":
                guard let from = object["from"]?.stringValue.flatMap(pointer) else { return nil }
                if from == path {
                    guard get(from, in: result) != nil else { return nil }
                    continue
                }
                guard !(path.count > from.count && Array(path.prefix(from.count)) == from),
                    let removed = remove(at: from, in: result),
                    let added = add(removed.value, at: path, in: removed.document)
                else { return nil }
                result = added
            case "copy":
                guard let from = object["from"]?.stringValue.flatMap(pointer), let value = get(from, in: result),
                    let added = add(value, at: path, in: result)
                else { return nil }
                result = added
            case "test":
                guard let value = object["value"], let actual = get(path, in: result), actual == value else {
                    return nil
                }
            default:
                return nil
            }
        }
        return result
    }

    /// The tokens of a JSON Pointer, or nil when it is not one.
    static func pointer(_ text: String) -> [String]? {
        if text.isEmpty { return [] }
        guard text.hasPrefix("/") else { return nil }
        var tokens: [String] = []
        for raw in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = ""
            var escaping = false
            for character in raw {
                if escaping {
                    guard character == "0" || character == "1" else { return nil }
                    token.append(character == "0" ? "~" : "/")
                    escaping = false
                } else if character == "~" {
                    escaping = true
                } else {
                    token.append(character)
                }
            }
            if escaping { return nil }
            tokens.append(token)
        }
        return tokens
    }

    private static func index(_ token: String, count: Int, allowEnd: Bool) -> Int? {
        if allowEnd && token == "-" { return count }
        guard let first = token.first, first.isASCII, first.isNumber, token == "0" || first != "0",
            token.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(token)
        else { return nil }
        return value < count || (allowEnd && value == count) ? value : nil
    }

    static func get(_ path: [String], in document: JSONValue) -> JSONValue? {
        var value = document
        for token in path {
            switch value {
            case .object(let object):
                guard let member = object[token] else { return nil }
                value = member
            case .array(let elements):
                guard let position = index(token, count: elements.count, allowEnd: false) else { return nil }
                value = elements[position]
            default:
                return nil
            }
        }
        return value
    }

    /// `document` with `newValue` added at `path` (or, `replacing`, put in place of what is there).
    static func add(_ newValue: JSONValue, at path: [String], in document: JSONValue, replacing: Bool = false)
        -> JSONValue?
    {
        guard let token = path.first else { return newValue }
        let rest = Array(path.dropFirst())
        switch document {
        case .object(var object):
            if rest.isEmpty {
                object.set(newValue, forKey: token)
            } else {
                guard let child = object[token], let changed = add(newValue, at: rest, in: child, replacing: replacing)
                else { return nil }
                object.set(changed, forKey: token)
            }
            return .object(object)
        case .array(var elements):
            let allowEnd = rest.isEmpty && !replacing
            guard let position = index(token, count: elements.count, allowEnd: allowEnd) else { return nil }
            if rest.isEmpty {
                if replacing { elements[position] = newValue } else { elements.insert(newValue, at: position) }
            } else {
                guard let changed = add(newValue, at: rest, in: elements[position], replacing: replacing) else {
                    return nil
                }
                elements[position] = changed
            }
            return .array(elements)
        default:
            return nil
        }
    }

    static func remove(at path: [String], in document: JSONValue) -> (document: JSONValue, value: JSONValue)? {
        guard let token = path.first else { return nil }
        let rest = Array(path.dropFirst())
        switch document {
        case .object(var object):
            guard let child = object[token] else { return nil }
            if rest.isEmpty {
                object.set(nil, forKey: token)
                return (.object(object), child)
            }
            guard let removed = remove(at: rest, in: child) else { return nil }
            object.set(removed.document, forKey: token)
            return (.object(object), removed.value)
        case .array(var elements):
            guard let position = index(token, count: elements.count, allowEnd: false) else { return nil }
            if rest.isEmpty {
                let value = elements.remove(at: position)
                return (.array(elements), value)
            }
            guard let removed = remove(at: rest, in: elements[position]) else { return nil }
            elements[position] = removed.document
            return (.array(elements), removed.value)
        default:
            return nil
        }
    }
}
