import TraceJSON

/// Finds the values a recorded state holds as `"<redacted>"` and puts the live state's values
/// there, so that a restore never gives the app the text `"<redacted>"` for a password.
enum RedactedValues {
    /// What the recorder writes in place of a redacted value (Recorder's `appendRedacted`).
    static let marker = "<redacted>"

    /// `recorded` with the value of `live` at each path where `recorded` holds the marker; the
    /// paths taken from `live`, and those whose live value cannot be found, each with why.
    struct Merge {
        var value: JSONValue
        var kept: [StatePath] = []
        var missing: [Missing] = []
    }

    /// A redacted value with no live value to keep: its path, and why (for the error message).
    struct Missing {
        var path: StatePath
        var reason: String
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
    ///
    /// An array element is matched with the live element that is the same item: in an array
    /// whose elements all have distinct ids (`StatePath.ItemID`, as paths name them `[id: …]`),
    /// the live element with its id, wherever it is now; in an array without ids, the live
    /// element at the same index only when both arrays have the same length (nothing was
    /// inserted or removed since, as far as can be told); else its value is missing: keeping a
    /// value by index would give one item another's secret.
    static func merge(_ recorded: JSONValue, live: JSONValue?, at path: StatePath = StatePath()) -> Merge {
        switch recorded {
        case .string(let text) where text == marker:
            guard let live else {
                return Merge(
                    value: recorded, missing: [Missing(path: path, reason: "the live state has no value there")])
            }
            return Merge(value: live, kept: [path])
        case .array(let elements):
            return mergeArray(elements, live: live, at: path)
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

    private static func mergeArray(_ elements: [JSONValue], live: JSONValue?, at path: StatePath) -> Merge {
        var merged = Merge(value: .array(elements))
        guard elements.contains(where: contains) else { return merged }
        let liveElements = live?.arrayValue
        let recordedIDs = uniqueIDs(of: elements)
        var liveByID: [StatePath.ItemID: JSONValue] = [:]
        if recordedIDs != nil, let liveElements {
            for element in liveElements {
                guard let id = StatePath.ItemID(of: element), liveByID[id] == nil else { continue }
                liveByID[id] = element
            }
        }
        var values: [JSONValue] = []
        values.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard contains(element) else {
                values.append(element)
                continue
            }
            let part: Merge
            if let recordedIDs {
                let id = recordedIDs[index]
                let elementPath = path.appending(.id(id))
                if let liveElement = liveByID[id] {
                    part = merge(element, live: liveElement, at: elementPath)
                } else {
                    part = Merge(
                        value: element,
                        missing: [
                            Missing(
                                path: elementPath,
                                reason: "the live state has no item with the id \(id) (it was removed since)")
                        ])
                }
            } else if let liveElements, liveElements.count == elements.count {
                part = merge(element, live: liveElements[index], at: path.appending(.index(index)))
            } else {
                let reason =
                    liveElements == nil
                    ? "the live state has no array there"
                    : "the array's items have no distinct \"id\" and it has \(liveElements!.count) items now, \(elements.count) then, so which live item this one is cannot be told"
                part = Merge(value: element, missing: [Missing(path: path.appending(.index(index)), reason: reason)])
            }
            values.append(part.value)
            merged.kept += part.kept
            merged.missing += part.missing
        }
        merged.value = .array(values)
        return merged
    }

    /// The ids of `elements` in order, when every element is an object with an id and no two
    /// ids are the same (the arrays whose elements paths name by id); nil otherwise.
    private static func uniqueIDs(of elements: [JSONValue]) -> [StatePath.ItemID]? {
        var seen = Set<StatePath.ItemID>()
        var ids: [StatePath.ItemID] = []
        for element in elements {
            guard let id = StatePath.ItemID(of: element), seen.insert(id).inserted else { return nil }
            ids.append(id)
        }
        return ids.isEmpty ? nil : ids
    }
}
