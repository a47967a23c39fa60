/// What a documentation test compares with the page that shows code (README.md, a DocC
/// article): the text between each `// Example: …` line and the next `// End of example` line, without
/// the indentation those lines have.
public func documentationExamples(in source: String) -> [String] {
    var examples: [String] = []
    var current: [Substring]?
    var indent = 0
    for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
        let text = line.drop { $0 == " " }
        if text.hasPrefix("// Example:") {
            current = []
            indent = line.count - text.count
        } else if text == "// End of example" {
            if let lines = current {
                examples.append(
                    lines.map { $0.dropFirst(min(indent, $0.prefix { $0 == " " }.count)) + "\n" }.joined())
            }
            current = nil
        } else {
            current?.append(line)
        }
    }
    return examples
}
