import TraceReader

/// The page's summary of each event, one array per field (columns), so that the timeline can
/// draw any of 100,000 rows without parsing a state: small integers for names (numbers into a
/// `StringTable`), -1 where an event has no such field.
struct EventColumns {
    private(set) var count = 0
    private var seq: [Int] = []
    private var step: [Int] = []
    private var line: [Int] = []
    private var type: [Int] = []
    private var store: [Int] = []
    private var action: [Int] = []
    private var from: [Int] = []
    /// `to` for a transition, `case` for a register or a restore: the case after the event.
    private var to: [Int] = []
    /// 1 changed, 0 unchanged, -1 not said.
    private var changed: [Int] = []
    private var elapsed: [Double?] = []
    private var source: [Int] = []
    private var cause: [Int] = []
    /// The action's arguments as the timeline row shows them (`ActionArgumentsText`, shortened to
    /// `argumentsWidth` columns): a number into the arguments' `StringTable`, -1 for none.
    private var args: [Int] = []

    /// The most columns of a row's arguments text: the row cuts it to its width, and the page
    /// shows the whole value (from the event's details) as the row's tooltip.
    static let argumentsWidth = 60

    /// Appends the event at `step` on file line `line`; nil when its line could no longer be read.
    /// Store names go into `stores`, arguments texts into `arguments`, every other name into `names`.
    mutating func append(
        _ event: TraceEvent?, step: Int, line: Int, stores: inout StringTable, names: inout StringTable,
        arguments: inout StringTable
    ) {
        count += 1
        self.step.append(step)
        self.line.append(line)
        guard let event else {
            seq.append(-1)
            type.append(names.number("unreadable"))
            for column in [\EventColumns.store, \.action, \.from, \.to, \.changed, \.source, \.cause, \.args] {
                self[keyPath: column].append(-1)
            }
            elapsed.append(nil)
            return
        }
        seq.append(event.seq)
        type.append(names.number(event.type))
        store.append(stores.number(event.store))
        action.append(names.number(event.action))
        from.append(names.number(event.type == "transition" ? event.from : nil))
        to.append(names.number(event.type == "transition" ? event.to : event.setsState ? event.caseName : nil))
        changed.append(event.changed.map { $0 ? 1 : 0 } ?? -1)
        elapsed.append(event.elapsed.flatMap { $0.isFinite ? $0 : nil })
        source.append(names.number(event.source))
        cause.append(event.cause ?? -1)
        let text = ActionArgumentsText.text(event.args)
        args.append(
            text.isEmpty ? -1 : arguments.number(ActionArgumentsText.shortened(text, width: Self.argumentsWidth)))
    }

    /// The columns as a JSON object of arrays: `{"seq":[1,2],"step":[1,2],…}`.
    var json: String {
        var text = "{"
        let integers: [(String, [Int])] = [
            ("seq", seq), ("step", step), ("line", line), ("type", type), ("store", store), ("action", action),
            ("from", from), ("to", to), ("changed", changed), ("source", source), ("cause", cause), ("args", args),
        ]
        for (name, values) in integers {
            text += "\"\(name)\":["
            text += values.lazy.map(String.init).joined(separator: ",")
            text += "],"
        }
        text += "\"elapsed\":["
        text += elapsed.lazy.map { $0.map(Self.number) ?? "null" }.joined(separator: ",")
        text += "]}"
        return text
    }

    /// A finite double as JSON: `0.0021`, `12`, `1e-07`.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        let text = String(value)
        // Swift writes `1e-07`; JSON allows that. It never writes `inf` or `nan` for a finite value.
        return text
    }
}
