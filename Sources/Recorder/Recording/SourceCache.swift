/// The `source` text (`"Module/File.swift:LINE"`, quoted) of recently recorded call sites.
///
/// A call site's `#fileID` is a static string: its bytes live in the binary and never change,
/// so its address and the line identify the text. Apps send the same few actions over and over,
/// and copying the remembered bytes costs a tenth of finding the file name and writing the line
/// again. Direct-mapped: a call site takes the slot its address and line hash to, replacing
/// whatever was there.
///
/// The slots are allocated once and each text is kept in a buffer of its own, read through a
/// pointer: a hit retains nothing (reading an array out of a table retains it, and the retain and
/// release cost more than the copy). It owns that memory and cannot be copied: `deinit` frees it.
struct SourceCache: ~Copyable {
    private struct Entry {
        var file: UnsafeRawPointer?
        var line: UInt = 0
        /// The text, allocated for this entry; nil for an empty slot.
        var text: UnsafeMutableRawBufferPointer?
    }

    private static var capacity: Int { 16 }
    private let entries: UnsafeMutablePointer<Entry>

    init() {
        entries = .allocate(capacity: Self.capacity)
        entries.initialize(repeating: Entry(), count: Self.capacity)
    }

    deinit {
        for index in 0..<Self.capacity { entries[index].text?.deallocate() }
        entries.deinitialize(count: Self.capacity)
        entries.deallocate()
    }

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
        let entry = entries + Self.slot(start, line)
        guard entry.pointee.file == start && entry.pointee.line == line, let text = entry.pointee.text else {
            return false
        }
        output.append(UnsafeRawBufferPointer(text))
        return true
    }

    /// Remembers `text` as this call site's.
    mutating func remember(_ file: StaticString, _ line: UInt, _ text: UnsafeRawBufferPointer) {
        guard file.hasPointerRepresentation else { return }
        let start = UnsafeRawPointer(file.utf8Start)
        let entry = entries + Self.slot(start, line)
        entry.pointee.text?.deallocate()
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(text.count, 1), alignment: 1)
        copy.copyMemory(from: text)
        entry.pointee = Entry(
            file: start, line: line, text: UnsafeMutableRawBufferPointer(rebasing: copy[..<text.count]))
    }
}
