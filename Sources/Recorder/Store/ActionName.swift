/// The names an action is recorded with: its name from the calling function or from an enum
/// case, and its `source`.
enum ActionName {
    /// `toLoading()` → `toLoading`; `add(sku:quantity:)` → `add`.
    static func of(function: String) -> String {
        // Bytes, not Characters: grapheme breaking here cost a thousand instructions an action;
        // and a buffer, not the UTF8View, whose generic search cost a hundred more.
        var name = function
        return name.withUTF8 { bytes in
            guard let paren = bytes.firstIndex(of: UInt8(ascii: "(")) else { return function }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<paren]), as: UTF8.self)
        }
    }

    /// `SampleApp/CatalogStore.swift`, 31 → `SampleApp/CatalogStore.swift:31`: the `source` a
    /// trace records (`#fileID` as it is).
    static func source(_ file: StaticString, _ line: UInt) -> String {
        "\(file.description):\(line)"
    }

    /// The name and arguments of an action given as a value: an enum case's name and its
    /// associated values (labelled, or `_0`, `_1`, …); the description of anything else.
    static func describe<Action>(_ action: Action) -> (name: String, args: ActionArguments?) {
        let mirror = Mirror(reflecting: action)
        // An enum case with associated values mirrors as one child: the case's name, and its
        // values (a tuple when there are several).
        guard mirror.displayStyle == .enum, let payload = mirror.children.first, let caseName = payload.label else {
            return (of(function: String(describing: action)), nil)
        }
        let values = Mirror(reflecting: payload.value)
        var members: [(name: String, value: any Encodable)] = []
        if values.displayStyle == .tuple {
            for (index, child) in values.children.enumerated() {
                let label = child.label.flatMap { $0.hasPrefix(".") ? nil : $0 } ?? "_\(index)"
                members.append((label, encodable(child.value)))
            }
        } else {
            members.append(("_0", encodable(payload.value)))
        }
        return (caseName, ActionArguments(members: members))
    }

    private static func encodable(_ value: Any) -> any Encodable {
        value as? any Encodable ?? String(describing: value)
    }
}
