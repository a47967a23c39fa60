import TraceReader

extension TraceFile {
    /// The most events scanned between two looks at `shouldStop`.
    static let actionScanBatch = 1 << 16

    /// The indices of the events whose action column is `action`, in order: a transition's
    /// `action` (`?` when it has none), another event's `type` (`register`, `restore`), as the
    /// step view lists them. Read from each line's top-level members (`EventScanner`), the file
    /// read in blocks: no event is decoded and no state parsed. Nil when `shouldStop`, asked
    /// between batches of events, said to stop.
    package func eventIndices(ofAction action: String, shouldStop: () -> Bool = { false }) -> [Int]? {
        var indices: [Int] = []
        var start = 0
        while start < eventCount {
            if shouldStop() { return nil }
            let end = min(eventCount, start + Self.actionScanBatch)
            scanEvents(start..<end) { index, fields, line in
                guard let fields, let type = fields.type else { return }
                let typeName = EventFields.string(type, in: line)
                let name =
                    typeName == "transition" ? fields.action.map { EventFields.string($0, in: line) } ?? "?" : typeName
                if name == action { indices.append(index) }
            }
            start = end
        }
        return indices
    }
}
