import TraceJSON
import TraceReader

/// The JSON that `when --format json` and `why --format json` print for an event and a change:
/// the event's members as the trace has them (without its state), and a change as a path, a
/// kind and the values before and after.
///
/// ```json
/// {"step":7,"seq":7,"line":8,"type":"transition","store":"CartStore","action":"add","source":"Shop.swift:40","cause":6}
/// {"path":"CartStore.lines[0].quantity","kind":"changed","before":1,"after":2}
/// ```
enum EventJSON {
    /// The members of `event` a script needs to find it and follow it, in the trace's order;
    /// absent members are left out.
    static func object(_ event: TraceEvent, step: Int? = nil) -> JSONObject {
        var object: JSONObject = [:]
        if let step { object.append(key: "step", value: number(step)) }
        object.append(key: "seq", value: number(event.seq))
        object.append(key: "line", value: number(event.line))
        object.append(key: "type", value: .string(event.type))
        if let store = event.store { object.append(key: "store", value: .string(store)) }
        if let action = event.action { object.append(key: "action", value: .string(action)) }
        if let caseName = event.caseName { object.append(key: "case", value: .string(caseName)) }
        if let from = event.from { object.append(key: "from", value: .string(from)) }
        if let to = event.to { object.append(key: "to", value: .string(to)) }
        if let changed = event.changed { object.append(key: "changed", value: .bool(changed)) }
        if let elapsed = event.elapsed, elapsed.isFinite {
            object.append(key: "elapsed", value: .number(String(elapsed)))
        }
        if let source = event.source { object.append(key: "source", value: .string(source)) }
        if let cause = event.cause { object.append(key: "cause", value: number(cause)) }
        if let stack = event.stack { object.append(key: "stack", value: .array(stack.map { .string($0) })) }
        return object
    }

    /// `change` as `{"path":…,"kind":"added|removed|changed","before":…,"after":…}`, without
    /// `before` for an added value and without `after` for a removed one.
    static func object(_ change: StateChange) -> JSONValue {
        var object: JSONObject = [:]
        object.append(key: "path", value: .string(change.path.description))
        let kind =
            switch change {
            case .added: "added"
            case .removed: "removed"
            case .changed: "changed"
            }
        object.append(key: "kind", value: .string(kind))
        if let before = change.before { object.append(key: "before", value: before) }
        if let after = change.after { object.append(key: "after", value: after) }
        return .object(object)
    }

    private static func number(_ value: Int) -> JSONValue {
        .number(String(value))
    }
}
