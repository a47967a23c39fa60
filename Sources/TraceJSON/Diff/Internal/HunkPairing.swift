/// Decides, where an array alignment removed some elements and inserted others at the same
/// place, which removed element became which inserted one.
///
/// Paired elements are diffed in depth (an item whose one field changed shows as that field's
/// change); the others are whole removals and insertions. One element replaced by one other is
/// always a pair. In a longer stretch, pairs keep their order and are chosen to share the most:
/// objects by the fraction of members (by name) whose values are equal, so that in
/// `[B, C] → [C′]` it is `C` that became `C′` and `B` that was removed. Values of the same other
/// JSON type (two numbers, two arrays) pair with a middling score; values of different types,
/// and objects with no equal member, do not pair.
///
/// The choice is a small dynamic program over the stretch, O(k·m) for k removed and m inserted
/// elements; past 4096 candidate pairs elements are paired by position instead.
enum HunkPairing {
    /// One step through the stretch, in order; offsets count from its start on each side.
    package enum Step: Equatable {
        case pair(old: Int, new: Int)
        case remove(old: Int)
        case insert(new: Int)
    }

    static let maximumCandidates = 4096

    /// Whether a stretch of `oldCount` removed and `newCount` inserted elements is paired by
    /// similarity; otherwise by position (see `byPosition`).
    static func comparesInDepth(_ oldCount: Int, _ newCount: Int) -> Bool {
        !(oldCount == 0 || newCount == 0 || (oldCount == 1 && newCount == 1) || oldCount * newCount > maximumCandidates)
    }

    /// The pairing of a stretch whose elements have these fingerprints.
    static func pair(_ oldPrints: [Fingerprint], _ newPrints: [Fingerprint]) -> [Step] {
        let oldCount = oldPrints.count
        let newCount = newPrints.count
        if !comparesInDepth(oldCount, newCount) { return byPosition(oldCount, newCount) }
        var score = [Double](repeating: 0, count: oldCount * newCount)
        for i in 0..<oldCount {
            for j in 0..<newCount {
                score[i * newCount + j] = oldPrints[i].similarity(to: newPrints[j])
            }
        }
        // best[i][j]: the most similarity the pairs among old[i...] and new[j...] can share;
        // move[i][j]: the first step that reaches it (0 pair, 1 remove, 2 insert).
        let columns = newCount + 1
        var best = [Double](repeating: 0, count: (oldCount + 1) * columns)
        var move = [UInt8](repeating: 0, count: (oldCount + 1) * columns)
        for i in stride(from: oldCount, through: 0, by: -1) {
            for j in stride(from: newCount, through: 0, by: -1) {
                if i == oldCount && j == newCount { continue }
                var value = -1.0
                var step: UInt8 = 0
                if i < oldCount && j < newCount && score[i * newCount + j] > 0 {
                    value = score[i * newCount + j] + best[(i + 1) * columns + j + 1]
                    step = 0
                }
                if i < oldCount && best[(i + 1) * columns + j] > value {
                    value = best[(i + 1) * columns + j]
                    step = 1
                }
                if j < newCount && best[i * columns + j + 1] > value {
                    value = best[i * columns + j + 1]
                    step = 2
                }
                best[i * columns + j] = value
                move[i * columns + j] = step
            }
        }
        var steps: [Step] = []
        steps.reserveCapacity(oldCount + newCount)
        var i = 0
        var j = 0
        while i < oldCount || j < newCount {
            switch move[i * columns + j] {
            case 0 where i < oldCount && j < newCount:
                steps.append(.pair(old: i, new: j))
                i += 1
                j += 1
            case 1 where i < oldCount:
                steps.append(.remove(old: i))
                i += 1
            case _ where j < newCount:
                steps.append(.insert(new: j))
                j += 1
            default:
                steps.append(.remove(old: i))
                i += 1
            }
        }
        return steps
    }

    /// The first removed element paired with the first inserted one, and so on.
    static func byPosition(_ oldCount: Int, _ newCount: Int) -> [Step] {
        let paired = min(oldCount, newCount)
        return (0..<paired).map { Step.pair(old: $0, new: $0) }
            + (paired..<max(paired, oldCount)).map { Step.remove(old: $0) }
            + (paired..<max(paired, newCount)).map { Step.insert(new: $0) }
    }

    /// What the similarity of two elements is computed from, once per element.
    enum Fingerprint {
        /// An object: each visible member's name hash and the hash of its value.
        case object([UInt64: UInt64])
        /// Any other value: its JSON type.
        case other(JSONTextReader.Kind)

        init(_ value: TextValue, in reader: JSONTextReader, _ scratch: inout JSONTextReader.Scratch) {
            guard reader.kind(value) == .object else {
                self = .other(reader.kind(value))
                return
            }
            var hashes: [UInt64: UInt64] = [:]
            for member in reader.visibleMembers(of: value, &scratch) {
                hashes[reader.nameHash(at: member.name, &scratch)] = reader.hash(member.value, &scratch)
            }
            self = .object(hashes)
        }

        /// From 0 (do not pair) to 1.
        func similarity(to other: Fingerprint) -> Double {
            switch (self, other) {
            case (.object(let left), .object(let right)):
                guard !left.isEmpty || !right.isEmpty else { return 1 }
                var equal = 0
                var shared = 0
                for (name, hash) in left {
                    guard let otherHash = right[name] else { continue }
                    shared += 1
                    if otherHash == hash { equal += 1 }
                }
                return Double(equal) / Double(left.count + right.count - shared)
            case (.other(let left), .other(let right)):
                return left == right ? 0.5 : 0
            default:
                return 0
            }
        }
    }
}
