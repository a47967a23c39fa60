import TraceJSON
import TraceQueries

/// `coverage --format json`: one object, for scripts and dashboards.
///
/// ```json
/// {"traces":3,"declared":12,"taken":9,"percent":75,"min":80,"passes":false,
///  "machines":[{"store":"CatalogStore","initial":"idle","traces":3,"declared":5,"taken":4,"percent":80,
///    "transitions":[{"from":"idle","to":"loading","count":3,"traces":3,"actions":["toLoading"]},…],
///    "illegal":[{"from":"loading","to":"loading","count":1,"traces":1,"actions":["toLoading"]}],
///    "unvisited":["failed"],"tracesWithAnotherMachine":0}],
///  "storesWithoutMachine":["CartStore"],"unreadableLines":0,"unreadable":[{"file":…,"message":…}]}
/// ```
///
/// `transitions` lists every declared transition, taken or not (`count` 0); `percent` is cut to
/// two decimals, and null where nothing is declared; `min` is null without `--min`.
enum CoverageJSON {
    static func value(_ outcome: CoverageOutcome) -> JSONValue {
        let coverage = outcome.coverage
        var object: JSONObject = [:]
        object.append(key: "traces", value: number(coverage.traces))
        object.append(key: "declared", value: number(coverage.declaredCount))
        object.append(key: "taken", value: number(coverage.takenCount))
        object.append(key: "percent", value: percent(coverage.percent))
        object.append(
            key: "min", value: outcome.minimum.map { .number(CoverageOutcome.decimal($0, places: 2)) } ?? .null)
        object.append(key: "passes", value: .bool(outcome.passes))
        object.append(key: "machines", value: .array(coverage.machines.map(machine)))
        object.append(key: "storesWithoutMachine", value: .array(coverage.storesWithoutMachine.map(JSONValue.string)))
        object.append(key: "unreadableLines", value: number(coverage.unreadableLines))
        object.append(
            key: "unreadable",
            value: .array(
                coverage.failures.map { failure in
                    var entry: JSONObject = ["file": .string(failure.path)]
                    if let line = failure.line { entry.append(key: "line", value: number(line)) }
                    entry.append(key: "message", value: .string(failure.message))
                    return .object(entry)
                }))
        return .object(object)
    }

    private static func machine(_ machine: MachineCoverage) -> JSONValue {
        var object: JSONObject = [:]
        object.append(key: "store", value: .string(machine.store))
        object.append(key: "initial", value: .string(machine.machine.initial))
        object.append(key: "traces", value: number(machine.traces))
        object.append(key: "declared", value: number(machine.declared.count))
        object.append(key: "taken", value: number(machine.takenCount))
        object.append(key: "percent", value: percent(machine.percent))
        object.append(key: "transitions", value: .array(machine.declared.map(transition)))
        object.append(key: "illegal", value: .array(machine.undeclared.map(transition)))
        object.append(key: "unvisited", value: .array(machine.unvisitedCases.map(JSONValue.string)))
        object.append(key: "tracesWithAnotherMachine", value: number(machine.tracesWithAnotherMachine))
        return .object(object)
    }

    private static func transition(_ transition: MachineCoverage.Transition) -> JSONValue {
        .object([
            "from": .string(transition.from), "to": .string(transition.to), "count": number(transition.count),
            "traces": number(transition.traces), "actions": .array(transition.actions.map(JSONValue.string)),
        ])
    }

    private static func percent(_ value: Double?) -> JSONValue {
        value.map { .number(CoverageOutcome.decimal($0, places: 2)) } ?? .null
    }

    private static func number(_ value: Int) -> JSONValue {
        .number(String(value))
    }
}
