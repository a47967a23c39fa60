import TraceReader

/// Finds the values a recorded state holds as `"<redacted>"` and puts the live state's values
/// there, so that a restore never gives the app the text `"<redacted>"` for a password.
enum RedactedValues {
    /// What the recorder writes in place of a redacted value (Recorder's `appendRedacted`).
    static let marker = "<redacted>"

    /// `recorded` with the value of `live` at each path where `recorded` holds the marker; the
    /// paths taken from `live`, and those `live` has no value at.
    struct Merge {
        var value: JSONValue
        var kept: [StatePath] = []
        var missing: [StatePath] = []
    }

    /// Whether `value` holds the marker anywhere (a quick look before building anything).
    static func contains(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let text): text == marker
        case .array(let elements): elements.contains(where: contains)
        case .object(let object): object.contains { contains($0.value) }
        case .null, .bool, .number: false
        }
    }

    /// Merges `live` into `recorded` at the marker's paths; `path` is where both are.
    static func merge(_ recorded: JSONValue, live: JSONValue?, at path: StatePath = StatePath()) -> Merge {
        switch recorded {
        case .string(let text) where text == marker:
            guard let live else { return Merge(value: recorded, missing: [path]) }
            return Merge(value: live, kept: [path])
        case .array(let elements):
            var merged = Merge(value: recorded)
            var values: [JSONValue] = []
            values.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                let liveElement = live.flatMap { $0.arrayValue }.flatMap {
                    $0.indices.contains(index) ? $0[index] : nil
                }
                let part = merge(element, live: liveElement, at: path.appending(.index(index)))
                values.append(part.value)
                merged.kept += part.kept
                merged.missing += part.missing
            }
            merged.value = .array(values)
            return merged
        case .object(let object):
            var merged = Merge(value: recorded)
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(object.count)
            for (key, member) in object {
                let part = merge(member, live: live?[key], at: path.appending(.key(key)))
                members.append((key, part.value))
                merged.kept += part.kept
                merged.missing += part.missing
            }
            merged.value = .object(JSONObject(members))
            return merged
        case .null, .bool, .number, .string:
            return Merge(value: recorded)
        }
    }
}
