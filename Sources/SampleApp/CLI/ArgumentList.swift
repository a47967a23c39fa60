import Recorder

/// A subcommand's arguments, taken one by one: options (`-o FILE`, `--at 5`, `--at=5`) anywhere,
/// positional arguments in order. `--` ends the options.
struct ArgumentList {
    private var items: [String]
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

    /// Whether `--help` or `-h` is present.
    var wantsHelp: Bool {
        items.contains { $0 == "--help" || $0 == "-h" }
    }

    /// Removes an option given as `NAME VALUE` or `NAME=VALUE` under any of `names`, and returns
    /// its value; the last one wins.
    mutating func option(_ names: String...) throws(UsageError) -> String? {
        var value: String?
        while let index = items.firstIndex(where: { item in names.contains { item == $0 || item.hasPrefix($0 + "=") } }) {
            let item = items.remove(at: index)
            if let equals = item.firstIndex(of: "=") {
                value = String(item[item.index(after: equals)...])
            } else {
                guard index < items.count else { throw UsageError("\(item) needs a value") }
                value = items.remove(at: index)
            }
        }
        return value
    }

    /// Removes a whole-number option and checks it is in `range`.
    mutating func intOption(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = try option(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("\(name) needs a whole number from \(range.lowerBound) to \(range.upperBound), not '\(TerminalText.safe(text))'")
        }
        return value
    }

    /// Removes and returns the next positional argument, or throws naming what was expected.
    mutating func positional(_ what: String) throws(UsageError) -> String {
        if let index = items.firstIndex(where: { !$0.hasPrefix("-") || $0 == "-" }) { return items.remove(at: index) }
        guard !literal.isEmpty else { throw UsageError("missing \(what)") }
        return literal.removeFirst()
    }

    /// Throws when anything is left: an unknown option or an extra argument.
    func finish() throws(UsageError) {
        if let first = items.first {
            throw UsageError(first.hasPrefix("-") ? "unknown option '\(TerminalText.safe(first))'" : "unexpected argument '\(TerminalText.safe(first))'")
        }
        if let first = literal.first {
            throw UsageError("unexpected argument '\(TerminalText.safe(first))'")
        }
    }
}
