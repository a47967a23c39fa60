import Recorder
import TraceJSON

/// Turns a store's recorded state into a value of its type: the redacted values filled from the
/// live state (or refused), then the JSON decoded as the trace reader decodes recorded states.
enum StateDecoding {
    /// The state of `store` decoded from `recorded`, and the paths where the live value was
    /// kept. `live` gives the store's current state, asked for only when a value is redacted.
    static func decode<State: Codable>(
        _ type: State.Type, store: String, recorded: JSONValue, live: () -> State, settings: RestoreSettings
    ) throws(RestoreError) -> (State, kept: [StatePath]) {
        var value = recorded
        var kept: [StatePath] = []
        if RedactedValues.contains(recorded) {
            let liveValue = settings.redactedValues == .keepLive ? liveJSON(of: live()) : nil
            let merged = RedactedValues.merge(recorded, live: liveValue)
            if settings.redactedValues == .refuse || !merged.missing.isEmpty {
                let missing = merged.missing.map(\.path)
                let paths = (settings.redactedValues == .refuse ? missing + merged.kept : missing)
                    .map { prefixed($0, with: store) }
                let list = paths.map(\.description).joined(separator: ", ")
                let reasons = merged.missing.map { "\(prefixed($0.path, with: store)): \($0.reason)" }
                    .joined(separator: "; ")
                throw RestoreError(
                    .redacted, store: store, paths: paths,
                    message: settings.redactedValues == .refuse
                        ? "the state of \(store) at step \(settings.step) holds redacted values (\(list)), which the trace never had; nothing was restored. Restore with redactedValues: .keepLive to keep the live values there"
                        : "the state of \(store) at step \(settings.step) holds redacted values that no live value can stand for (\(reasons)); nothing was restored. Restore a step where \(store) holds these items as it does now, or record without redacting these keys in debug builds"
                )
            }
            value = merged.value
            kept = merged.kept.map { prefixed($0, with: store) }
        }
        let bytes = Array(JSONPrinter.compact(value).utf8)
        do {
            return (try JSONValueDecoder().decode(State.self, from: bytes), kept)
        } catch let error as DecodingError {
            throw cannotDecode(error, store: store, as: State.self, step: settings.step)
        } catch {
            throw RestoreError(
                .cannotDecode, store: store, path: StatePath(), type: String(describing: State.self),
                message:
                    "the state of \(store) at step \(settings.step) cannot be read as a \(State.self): \(error); nothing was restored"
            )
        }
    }

    /// The JSON of `state` with nothing redacted, secrets included: it never leaves the process.
    private static func liveJSON<State: Encodable>(of state: State) -> JSONValue? {
        let encoder = StateEncoder(revealingSecrets: ())
        guard let bytes = try? encoder.encode(state) else { return nil }
        return try? JSONParser.parse(bytes)
    }

    private static func prefixed(_ path: StatePath, with store: String) -> StatePath {
        StatePath([.key(store)] + path.components)
    }

    /// The error for a state that does not decode: the store, the path and the type.
    private static func cannotDecode<State>(_ error: DecodingError, store: String, as _: State.Type, step: Int)
        -> RestoreError
    {
        var type = String(describing: State.self)
        var codingPath: [any CodingKey]
        let what: String
        switch error {
        case .typeMismatch(let expected, let found):
            type = String(describing: expected)
            codingPath = found.codingPath
            what = "it is not a \(type) (\(found.debugDescription))"
        case .valueNotFound(let expected, let found):
            type = String(describing: expected)
            codingPath = found.codingPath
            what = "a \(type) is missing (\(found.debugDescription))"
        case .keyNotFound(let key, let found):
            codingPath = found.codingPath + [key]
            what = "the member \(key.stringValue) is missing"
        case .dataCorrupted(let found):
            codingPath = found.codingPath
            what = found.debugDescription
        @unknown default:
            return RestoreError(
                .cannotDecode, store: store, path: StatePath(), type: type,
                message:
                    "the state of \(store) at step \(step) cannot be read as a \(type): \(error); nothing was restored"
            )
        }
        let path = StatePath(codingPath.map { key in key.intValue.map { .index($0) } ?? .key(key.stringValue) })
        let shown = StatePath([.key(store)] + path.components)
        return RestoreError(
            .cannotDecode, store: store, path: path, type: type,
            message:
                "the state of \(store) at step \(step) is not a \(State.self) of this app: at \(shown), \(what). The app's types changed since the trace was recorded; restore from a trace this version of the app recorded. Nothing was restored"
        )
    }
}
