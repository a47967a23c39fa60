@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) internal import ToolSupport

/// A command's arguments, taken one by one: options (`--at 5`, `--at=5`, `--strict`) anywhere,
/// positional arguments in order. `--` ends the options.
///
/// Shared by `inspector` and `sample-app` (a target of its own, not a product: the Recorder
/// library, which apps link, has no use for it). Every piece of an argument that a message
/// repeats is made terminal-safe first.
public struct Arguments {
    /// Arguments before `--`: options and positionals.
    private var items: [String]
    /// Arguments after `--`: positionals only, even those that start with `-`.
    private var literal: [String]
    /// The options and flags asked about so far: what `finish()` suggests for a mistyped one.
    private var known: [String] = ["--help", "-h"]

    public init(_ all: [String]) {
        if let dashes = all.firstIndex(of: "--") {
            items = Array(all[..<dashes])
            literal = Array(all[(dashes + 1)...])
        } else {
            items = all
            literal = []
        }
    }

    /// Whether the `--help` / `-h` flag is present.
    public var wantsHelp: Bool {
        items.contains { $0 == "--help" || $0 == "-h" }
    }

    /// Removes the flag `name` (for example `--strict`) and returns whether it was there.
    public mutating func flag(_ name: String) -> Bool {
        known.append(name)
        guard let index = optionIndex(name) else { return false }
        items.remove(at: index)
        return true
    }

    /// Removes `NAME VALUE` or `NAME=VALUE` under any of `names` and returns the value; the last
    /// one wins.
    public mutating func option(_ names: String...) throws(UsageError) -> String? {
        try values(of: names).last
    }

    /// Every value of a repeatable option, in the order given.
    public mutating func options(_ name: String) throws(UsageError) -> [String] {
        try values(of: [name])
    }

    /// Removes every `NAME VALUE` and `NAME=VALUE` under any of `names`; returns the values in order.
    private mutating func values(of names: [String]) throws(UsageError) -> [String] {
        known.append(contentsOf: names)
        var values: [String] = []
        while let index = items.firstIndex(where: { item in names.contains { item == $0 || item.hasPrefix($0 + "=") } })
        {
            let item = items.remove(at: index)
            if let equals = item.firstIndex(of: "=") {
                values.append(String(item[item.index(after: equals)...]))
            } else {
                guard index < items.count else {
                    throw UsageError("\(TerminalText.safe(item)) needs a value")
                }
                values.append(items.remove(at: index))
            }
        }
        return values
    }

    /// Removes an integer option, checking its range.
    public mutating func intOption(_ name: String, atLeast minimum: Int = Int.min) throws(UsageError) -> Int? {
        guard let text = try option(name) else { return nil }
        guard let value = Int(text), value >= minimum else {
            throw UsageError(
                "\(name) needs a whole number\(minimum == Int.min ? "" : " of at least \(minimum)"), not '\(TerminalText.safe(text))'"
            )
        }
        return value
    }

    /// Removes a whole-number option and checks it is in `range`.
    public mutating func intOption(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = try option(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                "\(name) needs a whole number from \(range.lowerBound) to \(range.upperBound), not '\(TerminalText.safe(text))'"
            )
        }
        return value
    }

    /// Removes a choice option, checking it is one of `choices`.
    public mutating func choice(_ name: String, among choices: [String]) throws(UsageError) -> String? {
        guard let value = try option(name) else { return nil }
        guard choices.contains(value) else {
            throw UsageError(
                "\(name) must be one of \(choices.joined(separator: ", ")), not '\(TerminalText.safe(value))'")
        }
        return value
    }

    /// Removes and returns the next positional argument, or throws naming what was expected.
    public mutating func positional(_ what: String) throws(UsageError) -> String {
        guard let value = optionalPositional() else { throw UsageError("missing \(what)") }
        return value
    }

    /// Removes and returns the next positional argument, if any.
    public mutating func optionalPositional() -> String? {
        if let index = items.firstIndex(where: Self.isPositional) { return items.remove(at: index) }
        return literal.isEmpty ? nil : literal.removeFirst()
    }

    /// Removes and returns every remaining positional argument.
    public mutating func remainingPositionals() -> [String] {
        var values: [String] = []
        while let value = optionalPositional() { values.append(value) }
        return values
    }

    /// A whole-number positional argument.
    public mutating func intPositional(_ what: String, atLeast minimum: Int = 0) throws(UsageError) -> Int {
        let text = try positional(what)
        guard let value = Int(text), value >= minimum else {
            throw UsageError("\(what) must be a whole number of at least \(minimum), not '\(TerminalText.safe(text))'")
        }
        return value
    }

    /// Throws when anything is left: an unknown option or an extra argument.
    public func finish() throws(UsageError) {
        guard let first = items.first ?? literal.first else { return }
        if items.first != nil && !Self.isPositional(first) {
            let name = first.split(separator: "=", maxSplits: 1).first.map(String.init) ?? first
            throw UsageError(
                "unknown option '\(TerminalText.safe(first))'"
                    + TerminalText.safe(Suggestion.hint(for: name, among: known)))
        }
        throw UsageError("unexpected argument '\(TerminalText.safe(first))'")
    }

    private func optionIndex(_ name: String) -> Int? {
        items.firstIndex { $0 == name }
    }

    /// "-" alone means standard input; negative numbers are positional too.
    private static func isPositional(_ item: String) -> Bool {
        !item.hasPrefix("-") || item == "-" || Int(item) != nil
    }
}
