/// The `source` text (`"File.swift:LINE"`, quoted) of recently recorded call sites.
///
/// A call site's `#fileID` is a static string: its bytes live in the binary and never change,
/// so its address and the line identify the text. Apps send the same few actions over and over,
/// and copying the remembered bytes costs a tenth of finding the file name and writing the line
/// again. Direct-mapped: a call site takes the slot its address and line hash to, replacing
/// whatever was there.
struct SourceCache {
    private struct Entry {
        var file: UnsafeRawPointer?
        var line: UInt = 0
        var text: [UInt8] = []
    }

    private static var capacity: Int { 16 }
    private var entries = [Entry](repeating: Entry(), count: SourceCache.capacity)

    @inline(__always)
    private static func slot(_ file: UnsafeRawPointer, _ line: UInt) -> Int {
        let bits = UInt(bitPattern: file) ^ (line &* 0x9E37_79B9)
        return Int((bits ^ (bits >> 7)) & UInt(capacity &- 1))
    }

    /// Appends the text remembered for this call site; false when there is none.
    @inline(__always)
    func append(_ file: StaticString, _ line: UInt, to output: JSONOutput) -> Bool {
        guard file.hasPointerRepresentation else { return false }
        let start = UnsafeRawPointer(file.utf8Start)
        return entries.withUnsafeBufferPointer { entries in
            let entry = entries[Self.slot(start, line)]
            guard entry.file == start && entry.line == line else { return false }
            entry.text.withUnsafeBytes { output.append($0) }
            return true
        }
    }

    /// Remembers `text` as this call site's.
    mutating func remember(_ file: StaticString, _ line: UInt, _ text: UnsafeRawBufferPointer) {
        guard file.hasPointerRepresentation else { return }
        let start = UnsafeRawPointer(file.utf8Start)
        entries[Self.slot(start, line)] = Entry(file: start, line: line, text: Array(text))
    }
}
