/// One step of a coding path, as `JSONTapeDecoder` keeps it: trivially copyable (no existential
/// box, no reference counting), so descending into a value costs a few stores. The `CodingKey`
/// itself is made only when someone reads `codingPath`, usually to build an error.
struct JSONTapeStep {
    package enum Kind: UInt8 {
        /// No step: the value is the one at its parent's path (a top-level value).
        case none
        /// An object member: `value` is the tape index of its name entry; the key is
        /// `keyType.init(stringValue: name)`, which gives back the key that found it.
        case member
        /// An array element: `value` is its position.
        case index
        /// A key kept whole, for keys that are not names on the tape (`super`): `value` is its
        /// position in `JSONTapeState.extraKeys`.
        case extraKey
    }

    var kind: Kind
    var value: Int
    var keyType: any CodingKey.Type

    static let none = JSONTapeStep(kind: .none, value: 0, keyType: JSONCodingKey.self)

    @inline(__always)
    static func member(nameAt name: Int, _ keyType: any CodingKey.Type) -> JSONTapeStep {
        JSONTapeStep(kind: .member, value: name, keyType: keyType)
    }

    @inline(__always)
    static func index(_ position: Int) -> JSONTapeStep {
        JSONTapeStep(kind: .index, value: position, keyType: JSONCodingKey.self)
    }
}

/// A node of the tree of coding paths built while decoding: a step and the node it follows
/// (-1: the top level). Nodes live on a stack in `JSONTapeState.nodes`; a node made while a
/// value decodes is dropped when that value is done, so the stack stays as deep as the
/// document, not as long.
struct JSONTapePathNode {
    var parent: Int
    var step: JSONTapeStep
}

extension JSONTapeState {
    /// The coding path of `node` followed by `step`, as `CodingKey`s.
    mutating func codingPath(_ node: Int, then step: JSONTapeStep = .none) -> [any CodingKey] {
        var steps: [JSONTapeStep] = []
        if step.kind != .none { steps.append(step) }
        var current = node
        // Parents always come before their children on the node stack; the `< current` check
        // keeps the walk finite even for a node index kept past its value's lifetime.
        while current >= 0 && current < nodes.count {
            let parent = nodes[current].parent
            if nodes[current].step.kind != .none { steps.append(nodes[current].step) }
            guard parent < current else { break }
            current = parent
        }
        var keys: [any CodingKey] = []
        keys.reserveCapacity(steps.count)
        for step in steps.reversed() { keys.append(codingKey(step)) }
        return keys
    }

    /// The `CodingKey` of one step.
    func codingKey(_ step: JSONTapeStep) -> any CodingKey {
        switch step.kind {
        case .none:
            return JSONCodingKey(stringValue: "")
        case .index:
            return JSONCodingKey(index: step.value)
        case .extraKey:
            return step.value < extraKeys.count ? extraKeys[step.value] : JSONCodingKey(stringValue: "")
        case .member:
            let name = memberName(at: step.value)
            return step.keyType.init(stringValue: name) ?? JSONCodingKey(stringValue: name)
        }
    }
}
