import TraceJSON
import TraceQueries
import TraceReader

/// The tools about states: `state` (the app state, or a value in it, at a step), `diff` (what a
/// step changed) and `when` (the steps at which a value changed).
enum StateTools {
    static let all: [MCPTool] = [state, diff, when]

    static let pathHelp =
        "a path that starts with a store's name, as diff prints it: CartStore.lines[2].quantity, CartStore.lines[id: \"MUG\"].quantity"

    static let state = MCPTool(
        name: "state",
        description:
            "The app state at a step, or the value at 'path' in it. A value larger than the answer's limit comes back folded (deep containers replaced by {\"folded\":…}) with 'next': the paths of its members, to ask for one by one (paged with offset/limit). A string larger than the limit comes back a piece at a time: 'string' says which bytes of its UTF-8 (offset, length, of bytes), and 'next' the offset to ask for the rest with. Redacted values appear as the trace holds them.",
        inputSchema: MCPSchema.object(
            [
                MCPSchema.trace, ("step", MCPSchema.integer("the step: 0 (before any event) to the last")),
                ("path", MCPSchema.string("\(pathHelp); without it, the whole app state")),
                (
                    "length",
                    MCPSchema.integer(
                        "for a long string: the most bytes of it in the answer (default and at most \(AnswerBounds.answerBytes / 2)); 'offset' is where the piece starts, in bytes of its UTF-8",
                        minimum: 1, maximum: AnswerBounds.answerBytes / 2)
                ),
            ] + MCPSchema.paging(defaultLimit: 100, maximum: 1000), required: ["trace", "step"]),
        call: { session, arguments throws(MCPToolError) in
            let trace = try session.trace(try arguments.string("trace"))
            let step = try checkedStep(try arguments.int("step"), in: trace)
            let pathText = try arguments.optionalString("path")
            let (offset, limit) = try arguments.page(defaultLimit: 100, maximum: 1000)
            let path = try pathText.map { text throws(MCPToolError) in try parsedPath(text, in: trace) } ?? StatePath()
            let store = storeName(of: path)
            let appState: JSONText
            do throws(TraceReadError) {
                appState = try trace.file.readAppStateText(atStep: step, store: store)
            } catch {
                throw .failed("\(trace.shownName):\(error.line): \(error.message)")
            }
            guard let found = path.resolve(in: appState) else {
                if let store, path.components.count == 1 {
                    throw .failed("\(store) has no state at step \(step): its first event comes later")
                }
                throw .failed(
                    "nothing at \(MCPExcerpt.of(path.description)) at step \(step); ask for a shorter path (or none) to see what is there"
                )
            }
            var result: JSONObject = ["trace": .string(trace.name), "step": AnswerBounds.int(step)]
            if !path.components.isEmpty { result.append(key: "path", value: .string(path.description)) }
            let budget = AnswerBounds.answerBytes / 2
            let value = found.value
            if case .string(let string) = value, found.bytes.count > budget {
                let length = try arguments.optionalInt("length", atLeast: 1) ?? budget
                let piece = StringPiece(string, offset: offset, length: min(length, budget), budget: budget)
                result.append(key: "value", value: .string(piece.text))
                result.append(key: "folded", value: .bool(true))
                result.append(key: "bytes", value: AnswerBounds.int(found.bytes.count))
                result.append(key: "string", value: piece.json)
                if let next = piece.nextOffset {
                    result.append(key: "nextOffset", value: AnswerBounds.int(next))
                    var again = JSONObject()
                    if !path.components.isEmpty { again.append(key: "path", value: .string(path.description)) }
                    again.append(key: "offset", value: AnswerBounds.int(next))
                    result.append(key: "next", value: .array([.object(again)]))
                } else {
                    result.append(key: "next", value: .array([]))
                }
                return result
            }
            let (shown, folded) =
                found.bytes.count <= budget ? (value, false) : AnswerBounds.fold(value, budget: budget)
            result.append(key: "value", value: shown)
            result.append(key: "folded", value: .bool(folded))
            if folded {
                result.append(key: "bytes", value: AnswerBounds.int(found.bytes.count))
                var page = AnswerPage(offset: offset, limit: limit, reserve: budget + 1024)
                let members = children(of: value, at: path)
                var position = offset
                while position < members.count, page.add(members[position], at: position) { position += 1 }
                if position < members.count { page.more(at: position) }
                for (key, value) in page.members("next") { result.append(key: key, value: value) }
            }
            return result
        })

    static let diff = MCPTool(
        name: "diff",
        description:
            "What step 'step' changed (from step-1), or what changed from 'step' to 'to': the event at the step (action, source, arguments) and one entry per change: path, kind (added, removed, changed), before, after. Items of arrays with ids are named by id. Paged with offset/limit.",
        inputSchema: MCPSchema.object(
            [
                MCPSchema.trace, ("step", MCPSchema.integer("the step whose changes to show (1 to the last)")),
                ("to", MCPSchema.integer("compare 'step' with this step instead of step-1 with 'step'")),
                ("store", MCPSchema.string("only this store")),
            ] + MCPSchema.paging(defaultLimit: 100, maximum: 1000), required: ["trace", "step"]),
        call: { session, arguments throws(MCPToolError) in
            let trace = try session.trace(try arguments.string("trace"))
            let first = try checkedStep(try arguments.int("step"), in: trace)
            let second = try arguments.optionalInt("to").map { step throws(MCPToolError) in
                try checkedStep(step, in: trace)
            }
            let store = try arguments.optionalString("store")
            let (offset, limit) = try arguments.page(defaultLimit: 100, maximum: 1000)
            if let store, !trace.file.storeNames.contains(store) {
                throw .failed(
                    "no store named \(MCPExcerpt.of(store)) in \(trace.shownName); its stores are: \(trace.file.storeNames.prefix(50).joined(separator: ", "))"
                )
            }
            let from: Int
            let to: Int
            if let second {
                (from, to) = (first, second)
            } else {
                guard first > 0 else {
                    throw .failed("step 0 has no step before it; give a step from 1 to \(trace.file.lastStep)")
                }
                (from, to) = (first - 1, first)
            }
            let diff: StateDiff
            do throws(TraceReadError) {
                diff = StateDiff(
                    from: try trace.file.readAppStateText(atStep: from, store: store),
                    to: try trace.file.readAppStateText(atStep: to, store: store))
            } catch {
                throw .failed("\(trace.shownName):\(error.line): \(error.message)")
            }
            var result: JSONObject = [
                "trace": .string(trace.name), "from": AnswerBounds.int(from), "to": AnswerBounds.int(to),
            ]
            if second == nil, let index = trace.file.eventIndex(atStep: to),
                let event = trace.file.eventWithoutState(at: index)
            {
                var object = session.locatingSource(EventJSON.object(event, step: to))
                if let args = event.args { object.append(key: "args", value: .object(args)) }
                result.append(key: "event", value: AnswerBounds.fold(.object(object), budget: 4096).value)
            }
            let changes = diff.changes(namingItemsByID: true)
            result.append(key: "total", value: AnswerBounds.int(changes.count))
            var page = AnswerPage(offset: offset, limit: limit, reserve: 5 * 1024)
            var position = offset
            while position < changes.count, page.add(EventJSON.object(changes[position]), at: position) {
                position += 1
            }
            if position < changes.count { page.more(at: position) }
            for (key, value) in page.members("changes") { result.append(key: key, value: value) }
            return result
        })

    static let when = MCPTool(
        name: "when",
        description:
            "The steps at which the value at 'path' changed, each with the event (store, action, source: the line of Swift that sent it, cause) and the change (before, after). With 'before': N, only the last change before step N: who set the value step N-1 shows. Paged: when 'nextAfter' is in the answer, call again with after = nextAfter. 'passedOver' (when present) lists the lines whose state could not be rebuilt (bad-patch): the value was compared across them.",
        inputSchema: MCPSchema.object(
            [
                MCPSchema.trace, ("path", MCPSchema.string(pathHelp)),
                ("before", MCPSchema.integer("only the last change before this step (who set this?)")),
                ("after", MCPSchema.integer("only changes after this step")),
                (
                    "limit",
                    MCPSchema.integer(
                        "the most changes in the answer (default 50, at most 500)", minimum: 1, maximum: 500)
                ),
            ], required: ["trace", "path"]),
        call: { session, arguments throws(MCPToolError) in
            let trace = try session.trace(try arguments.string("trace"))
            var path = try parsedPath(try arguments.string("path"), in: trace)
            let before = try arguments.optionalInt("before")
            let after = try arguments.optionalInt("after")
            let limit = min(try arguments.optionalInt("limit", atLeast: 1) ?? 50, 500)
            // As `inspector when --before`: an index is the item there at step N-1, followed.
            if let before, before > 0, let store = storeName(of: path),
                let state = try? trace.file.readState(of: store, atStep: before - 1)
            {
                let tail = StatePath(Array(path.components.dropFirst())).followingItems(in: state)
                path = StatePath(path.components.prefix(1) + tail.components)
            }
            let history: ValueHistory
            do throws(ValueHistoryError) {
                history = try ValueHistory(trace: trace.file, path: path)
            } catch {
                throw .failed(MCPExcerpt.message("\(error)"))
            }
            func json(_ change: ValueChange) -> JSONValue {
                var object = session.locatingSource(EventJSON.object(change.event, step: change.step))
                object.append(key: "changes", value: .array(change.changes.map(EventJSON.object)))
                return .object(object)
            }
            var page = AnswerPage(offset: after ?? 0, limit: limit)
            var lastListed: Int?
            if let before {
                if let change = history.lastChange(before: before, after: after) { page.add(json(change), at: 0) }
            } else {
                history.forEachChange(after: after) { change in
                    if page.isFull {
                        page.more(at: lastListed ?? (after ?? 0))
                        return false
                    }
                    guard page.add(json(change), at: lastListed ?? (after ?? 0)) else { return false }
                    lastListed = change.step
                    return true
                }
            }
            var result: JSONObject = [
                "trace": .string(trace.name), "path": .string(path.description), "changes": .array(page.items),
            ]
            if let next = page.nextOffset { result.append(key: "nextAfter", value: AnswerBounds.int(next)) }
            // As `inspector when` warns: the events whose state could not be given were passed
            // over, so the answer says which (a few; `validate` lists them all), among them the
            // store's states that no change needed rebuilt.
            history.passOverUnreadableStates(after: after, before: before)
            let passedOver = history.passedOver
            if !passedOver.isEmpty {
                result.append(
                    key: "passedOver",
                    value: .array(
                        passedOver.prefix(20).map { error in
                            .object(["line": AnswerBounds.int(error.line), "message": .string(error.message)])
                        }))
            }
            return result
        })

    /// `step` when the trace has it; otherwise a tool error naming the trace's last step.
    static func checkedStep(_ step: Int, in trace: MCPSession.OpenTrace) throws(MCPToolError) -> Int {
        guard step <= trace.file.lastStep else {
            throw .failed(
                "step \(step) is past the end of \(trace.shownName), whose last step is \(trace.file.lastStep)")
        }
        return step
    }

    /// `text` read as a path whose first name is a store of the trace.
    static func parsedPath(_ text: String, in trace: MCPSession.OpenTrace) throws(MCPToolError) -> StatePath {
        let path: StatePath
        do throws(StatePathError) {
            path = try StatePath(parsing: text)
        } catch {
            throw .invalidArguments(
                "path \(MCPExcerpt.of(error.text)) is not a path (column \(error.column)): \(error.message)")
        }
        if let store = storeName(of: path), !trace.file.storeNames.contains(store) {
            throw .failed(
                "the path starts with \(MCPExcerpt.of(store)), which is not a store of \(trace.shownName); its stores are: \(trace.file.storeNames.prefix(50).joined(separator: ", "))"
            )
        }
        return path
    }

    /// The store a path starts with.
    static func storeName(of path: StatePath) -> String? {
        guard case .key(let name)? = path.components.first else { return nil }
        return name
    }

    /// The members of `value` at `path`: each one's path, kind and size, to ask for next.
    static func children(of value: JSONValue, at path: StatePath) -> [JSONValue] {
        func entry(_ child: JSONValue, _ childPath: StatePath) -> JSONValue {
            var object: JSONObject = ["path": .string(childPath.description), "kind": .string(child.kindName)]
            switch child {
            case .object(let members): object.append(key: "members", value: AnswerBounds.int(members.count))
            case .array(let elements): object.append(key: "items", value: AnswerBounds.int(elements.count))
            default: break
            }
            object.append(key: "bytes", value: AnswerBounds.int(AnswerBounds.size(child)))
            return .object(object)
        }
        switch value {
        case .object(let members):
            return members.map { entry($0.value, path.appending(.key($0.key))) }
        case .array(let elements):
            return elements.enumerated().map { entry($0.element, path.appending(.index($0.offset))) }
        default:
            return []
        }
    }
}
