/// A command's arguments, taken one by one: options (`--at 5`, `--at=5`, `--strict`) anywhere,
/// positional arguments in order. `--` ends the options.
struct Arguments {
    /// Arguments before `--`: options and positionals.
    private var items: [String]
    /// Arguments after `--`: positionals only, even those that start with `-`.
    private var literal: [String]

    init(_ all: [String]) {
        if let dashes = all.firstIndex(of: "--") {
            items = Array(all[..<dashes])
            literal = Array(all[(dashes + 1)...])
        } else {
            items = all
            literal = []
        }
    }

    /// Whether the `--help` / `-h` flag is present.
    var wantsHelp: Bool {
        items.contains { $0 == "--help" || $0 == "-h" }
    }

    /// Removes the flag `name` (for example `--strict`) and returns whether it was there.
    mutating func flag(_ name: String) -> Bool {
        guard let index = optionIndex(name) else { return false }
        items.remove(at: index)
        return true
    }

    /// Removes `name VALUE` or `name=VALUE` and returns the value; the last one wins.
    mutating func option(_ name: String) throws(UsageError) -> String? {
        var value: String?
        while let index = optionIndex(name, allowingValue: true) {
            let item = items.remove(at: index)
            if let equals = item.firstIndex(of: "=") {
                value = String(item[item.index(after: equals)...])
            } else {
                guard index < items.count else {
                    throw UsageError("\(name) needs a value")
                }
                value = items.remove(at: index)
            }
        }
        return value
    }

    /// Every value of a repeatable option.
    mutating func options(_ name: String) throws(UsageError) -> [String] {
        var values: [String] = []
        while let value = try option(name) { values.append(value) }
        return values
    }

    /// Removes an integer option, checking its range.
    mutating func intOption(_ name: String, atLeast minimum: Int = Int.min) throws(UsageError) -> Int? {
        guard let text = try option(name) else { return nil }
        guard let value = Int(text), value >= minimum else {
            throw UsageError("\(name) needs a whole number\(minimum == Int.min ? "" : " of at least \(minimum)"), not '\(text)'")
        }
        return value
    }

    /// Removes a choice option, checking it is one of `choices`.
    mutating func choice(_ name: String, among choices: [String]) throws(UsageError) -> String? {
        guard let value = try option(name) else { return nil }
        guard choices.contains(value) else {
            throw UsageError("\(name) must be one of \(choices.joined(separator: ", ")), not '\(value)'")
        }
        return value
    }

    /// Removes and returns the next positional argument, or throws naming what was expected.
    mutating func positional(_ what: String) throws(UsageError) -> String {
        guard let value = optionalPositional() else { throw UsageError("missing \(what)") }
        return value
    }

    /// Removes and returns the next positional argument, if any.
    mutating func optionalPositional() -> String? {
        if let index = items.firstIndex(where: Self.isPositional) { return items.remove(at: index) }
        return literal.isEmpty ? nil : literal.removeFirst()
    }

    /// Removes and returns every remaining positional argument.
    mutating func remainingPositionals() -> [String] {
        var values: [String] = []
        while let value = optionalPositional() { values.append(value) }
        return values
    }

    /// A whole-number positional argument.
    mutating func intPositional(_ what: String, atLeast minimum: Int = 0) throws(UsageError) -> Int {
        let text = try positional(what)
        guard let value = Int(text), value >= minimum else {
            throw UsageError("\(what) must be a whole number of at least \(minimum), not '\(text)'")
        }
        return value
    }

    /// Throws when anything is left: an unknown option or an extra argument.
    func finish() throws(UsageError) {
        guard let first = items.first ?? literal.first else { return }
        if items.first != nil && !Self.isPositional(first) {
            throw UsageError("unknown option '\(TTY.safe(first))'")
        }
        throw UsageError("unexpected argument '\(TTY.safe(first))'")
    }

    private func optionIndex(_ name: String, allowingValue: Bool = false) -> Int? {
        items.firstIndex { $0 == name || (allowingValue && $0.hasPrefix(name + "=")) }
    }

    /// "-" alone means standard input; negative numbers are positional too.
    private static func isPositional(_ item: String) -> Bool {
        !item.hasPrefix("-") || item == "-" || Int(item) != nil
    }
}
