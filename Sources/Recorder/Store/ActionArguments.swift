/// The arguments of an action, recorded as the event's `args` object, in the order written.
///
/// ```swift
/// send(args: ["sku": sku, "quantity": quantity]) { $0.add(sku, quantity) }
/// ```
public struct ActionArguments: ExpressibleByDictionaryLiteral {
    let members: [(name: String, value: any Encodable)]

    /// Creates arguments from a dictionary literal; the literal's order is kept.
    public init(dictionaryLiteral elements: (String, any Encodable)...) {
        members = elements.map { (name: $0.0, value: $0.1) }
    }

    init(members: [(name: String, value: any Encodable)]) {
        self.members = members
    }
}
