/// Aligns two sequences with Myers' O((N+M)·D) algorithm ("An O(ND) Difference Algorithm and
/// Its Variations", 1986): the fewest removals and insertions that turn one into the other, so
/// one element inserted into a list of 10,000 is one insertion.
///
/// Elements are compared through `same`, which the diff answers from the elements' hashes and,
/// only when two hashes are equal, from their bytes: the inner loop never walks a value. Time and memory are bounded: past
/// `maximumEdits` removals plus insertions the search gives up and the caller falls back to a
/// cheaper alignment, so no input can make a diff take quadratic time or memory.
enum ArrayAlignment {
    /// A run of the alignment.
    package enum Step: Equatable {
        /// Elements that are the same on both sides.
        case same(Int)
        /// Elements of the old side that are gone.
        case remove(Int)
        /// Elements of the new side that are new.
        case insert(Int)
    }

    /// How many removals plus insertions the search for `oldCount` and `newCount` elements
    /// may try before giving up: about 20 million comparisons and at most 4 MiB of trace.
    static func editBudget(oldCount: Int, newCount: Int) -> Int {
        max(64, min(1024, 20_000_000 / max(1, oldCount + newCount)))
    }

    /// The shortest alignment of `old` and `new`, as runs in order; nil when it needs more than
    /// `maximumEdits` removals plus insertions.
    static func align(_ old: [Int32], _ new: [Int32], maximumEdits: Int) -> [Step]? {
        align(oldCount: old.count, newCount: new.count, maximumEdits: maximumEdits) { old[$0] == new[$1] }
    }

    /// The shortest alignment of `oldCount` and `newCount` elements, where `same(x, y)` says
    /// whether old element x and new element y are the same; nil when it needs more than
    /// `maximumEdits` removals plus insertions. `same` is asked about each pair at most once per
    /// step of the search, mostly along runs of equal elements.
    static func align(oldCount: Int, newCount: Int, maximumEdits: Int, same: (Int, Int) -> Bool) -> [Step]? {
        if oldCount == 0 || newCount == 0 {
            var steps: [Step] = []
            if oldCount > 0 { steps.append(.remove(oldCount)) }
            if newCount > 0 { steps.append(.insert(newCount)) }
            return steps
        }
        let limit = min(oldCount + newCount, maximumEdits)
        // frontier[offset + k]: the furthest x reached on diagonal k = x − y, or −1 when no
        // path within the grid reaches it. `trace` keeps the frontier of every step d, for
        // diagonals −d…d, starting at index d².
        let offset = limit + 1
        var frontier = [Int](repeating: -1, count: 2 * limit + 3)
        var trace: [Int32] = []
        var end: (edits: Int, diagonal: Int)? = nil
        search: for edits in 0...limit {
            for diagonal in stride(from: -edits, through: edits, by: 2) {
                var x: Int
                if edits == 0 {
                    x = 0
                } else {
                    let choice = previousStep(
                        diagonal: diagonal, oldCount: oldCount, newCount: newCount,
                        down: diagonal + 1 <= edits - 1 ? frontier[offset + diagonal + 1] : -1,
                        right: diagonal - 1 >= -(edits - 1) ? frontier[offset + diagonal - 1] : -1)
                    guard let choice else {
                        frontier[offset + diagonal] = -1
                        continue
                    }
                    x = choice.isInsertion ? choice.x : choice.x + 1
                }
                var y = x - diagonal
                while x < oldCount && y < newCount && same(x, y) {
                    x += 1
                    y += 1
                }
                frontier[offset + diagonal] = x
                if x == oldCount && y == newCount {
                    end = (edits, diagonal)
                    break search
                }
            }
            for diagonal in -edits...edits {
                trace.append(Int32(truncatingIfNeeded: frontier[offset + diagonal]))
            }
        }
        guard let end else { return nil }
        return backtrack(end: end, trace: trace, oldCount: oldCount, newCount: newCount)
    }

    /// Which move reached `diagonal` at a step: down from `diagonal + 1` (an insertion)
    /// or right from `diagonal − 1` (a removal), given the x each reached one step earlier
    /// (−1 for none). The furthest move that stays inside the grid wins; nil when neither does.
    private static func previousStep(
        diagonal: Int, oldCount: Int, newCount: Int, down: Int, right: Int
    ) -> (x: Int, isInsertion: Bool)? {
        let downFits = down >= 0 && down - diagonal <= newCount
        let rightFits = right >= 0 && right + 1 <= oldCount
        if downFits && (!rightFits || right < down) { return (down, true) }
        if rightFits { return (right, false) }
        return nil
    }

    private static func backtrack(end: (edits: Int, diagonal: Int), trace: [Int32], oldCount: Int, newCount: Int)
        -> [Step]
    {
        // Single moves, last first: 0 same, 1 remove, 2 insert.
        var moves: [UInt8] = []
        moves.reserveCapacity(oldCount + newCount)
        var x = oldCount
        var diagonal = end.diagonal
        var edits = end.edits
        while edits > 0 {
            let base = (edits - 1) * (edits - 1)
            func reached(_ k: Int) -> Int {
                abs(k) <= edits - 1 ? Int(trace[base + k + edits - 1]) : -1
            }
            // The forward pass found a move here, so the same choice is found again.
            guard
                let choice = previousStep(
                    diagonal: diagonal, oldCount: oldCount, newCount: newCount,
                    down: reached(diagonal + 1), right: reached(diagonal - 1))
            else { break }
            let snakeStart = choice.isInsertion ? choice.x : choice.x + 1
            moves.append(contentsOf: repeatElement(0, count: x - snakeStart))
            moves.append(choice.isInsertion ? 2 : 1)
            x = choice.x
            diagonal += choice.isInsertion ? 1 : -1
            edits -= 1
        }
        moves.append(contentsOf: repeatElement(0, count: x))
        var steps: [Step] = []
        var kind: UInt8 = 255
        var count = 0
        func flush() {
            switch kind {
            case 0: steps.append(.same(count))
            case 1: steps.append(.remove(count))
            case 2: steps.append(.insert(count))
            default: break
            }
        }
        for move in moves.reversed() {
            if move == kind {
                count += 1
            } else {
                flush()
                kind = move
                count = 1
            }
        }
        flush()
        return steps
    }
}
