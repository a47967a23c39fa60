/// Strings numbered in the order first seen, so that a column of the page's data holds small
/// integers instead of repeating store, action and case names on every event.
struct StringTable {
    /// The strings, by number.
    private(set) var strings: [String] = []
    private var numbers: [String: Int] = [:]

    /// The number of `text`, adding it when new.
    mutating func number(_ text: String) -> Int {
        if let known = numbers[text] { return known }
        numbers[text] = strings.count
        strings.append(text)
        return strings.count - 1
    }

    /// The number of `text`, or -1 for nil.
    mutating func number(_ text: String?) -> Int {
        guard let text else { return -1 }
        return number(text)
    }

    /// The number of `text` when it is in the table.
    func existingNumber(_ text: String) -> Int? {
        numbers[text]
    }
}
