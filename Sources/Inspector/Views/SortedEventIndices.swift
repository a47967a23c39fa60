/// Moving along a list of event indices in increasing order, by binary search: the step view's
/// filters move on such lists (the events with a problem, those of one action) instead of
/// looking at every event.
extension Array where Element == Int {
    /// The position of the first element above `index` (with `forward` false: the last one
    /// below it); nil when there is none.
    func position(after index: Int, forward: Bool) -> Int? {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if forward ? self[middle] <= index : self[middle] < index {
                low = middle + 1
            } else {
                high = middle
            }
        }
        let position = forward ? low : low - 1
        return position >= 0 && position < count ? position : nil
    }
}
