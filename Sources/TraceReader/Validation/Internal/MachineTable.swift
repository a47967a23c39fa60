import Recorder
@_spi(RewindInternals) internal import RewindSupport
import TraceJSON

/// The machines a validation checks against, numbered: first the fixed ones (the header's and
/// `--spec`'s), then those that register events carry (`machine`), each compiled once per
/// distinct text and looked up by its bytes, so that a store registering again with the same
/// machine costs a hash of its bytes.
///
/// Memory stays bounded on a trace whose registers carry ever new machines: past
/// `compactionThreshold` carried machines, `compact` keeps only those the stores still use.
package struct MachineTable {
    /// Every machine, by number.
    private(set) var machines: [CompiledMachine] = []
    /// The number of fixed machines, which `compact` keeps.
    private(set) var fixedCount = 0
    /// The texts of carried machines, and for each text id the machine's number.
    private var texts = NameTable()
    private var numberOfText: [Int] = []

    /// The header's machines not built yet: where each is written (see `addFixed(written:in:store:)`).
    private var unbuilt: [Int: (text: HeaderText, range: Range<Int>, store: String)] = [:]

    /// Where the header's line is, to build its machines from.
    enum HeaderText {
        /// A copy of line 1.
        case copy([UInt8])
        /// A regular file open for reading, whose line 1 starts at offset 0: read again with
        /// `pread` when a machine is built, rather than copied whole (a header of 1,000 machines
        /// is megabytes, and a copy is one page fault every 4 KiB).
        case file(descriptor: Int32)
    }

    /// How many carried machines are kept before `compact` is due.
    static let compactionThreshold = 4096

    // The per-event lookups, through a pointer to the machine: reading `machines[number]`, even
    // through a buffer pointer's subscript, copies the machine and retains each of its tables.

    /// The number of case `name` in machine `number`, or nil when it is not one of its cases.
    @inline(__always)
    func caseNumber(_ name: ByteView, in number: Int) -> Int? {
        machines.withUnsafeBufferPointer { ($0.baseAddress.unsafelyUnwrapped + number).pointee.caseNumber(name) }
    }

    /// The number of case `name` in machine `number`, or nil when it is not one of its cases.
    func caseNumber(_ name: String, in number: Int) -> Int? {
        machines.withUnsafeBufferPointer { ($0.baseAddress.unsafelyUnwrapped + number).pointee.caseNumber(name) }
    }

    /// Whether machine `number` allows one action from case `from` to case `to`.
    @inline(__always)
    func allows(from: Int, to: Int, in number: Int) -> Bool {
        machines.withUnsafeBufferPointer {
            ($0.baseAddress.unsafelyUnwrapped + number).pointee.allows(from: from, to: to)
        }
    }

    /// Adds a fixed machine; returns its number.
    mutating func addFixed(_ spec: MachineSpec) -> Int {
        precondition(machines.count == fixedCount, "fixed machines come first")
        machines.append(CompiledMachine(spec))
        fixedCount += 1
        return fixedCount - 1
    }

    /// Adds a fixed machine written in `text[range]` (a header's machine, whose shape
    /// `HeaderSink` checked), to be built when `build` is first called with its number: a
    /// header may declare thousands of machines for stores that never appear. Returns its number.
    mutating func addFixed(written text: HeaderText, in range: Range<Int>, store: String) -> Int {
        precondition(machines.count == fixedCount, "fixed machines come first")
        machines.append(CompiledMachine.unbuilt)
        unbuilt[fixedCount] = (text, range, store)
        fixedCount += 1
        return fixedCount - 1
    }

    /// Builds machine `number` if it was added unbuilt.
    @inline(__always)
    mutating func build(_ number: Int) {
        guard !unbuilt.isEmpty, let written = unbuilt.removeValue(forKey: number) else { return }
        let bytes: [UInt8]
        switch written.text {
        case .copy(let text):
            bytes = Array(text[written.range])
        case .file(let descriptor):
            let count = written.range.count
            bytes =
                (try? [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                    initialized = try SystemCalls.read(
                        descriptor, into: UnsafeMutableRawPointer(buffer.baseAddress!), count: count,
                        at: written.range.lowerBound)
                }) ?? []
        }
        let spec = (try? JSONParser.parse(bytes)).flatMap {
            try? TraceHeader.parseMachine($0, name: "machine \(TraceHeader.quoted(written.store))")
        }
        // `HeaderSink` checked the shape, so `spec` is never nil (a test holds it to that),
        // unless line 1 of the file was rewritten during the validation.
        machines[number] = spec.map(CompiledMachine.init) ?? CompiledMachine.unbuilt
    }

    /// The number of the machine written in `bytes` (a `machine` member's JSON object), or why
    /// it is not shaped as a machine.
    mutating func machine(written bytes: ByteView) -> Result<Int, EventLineCheck.Malformed> {
        if let id = texts.find(bytes) { return .success(numberOfText[id]) }
        switch EventLineCheck.machine(bytes) {
        case .failure(let problem):
            return .failure(problem)
        case .success(let spec):
            let id = texts.intern(bytes)
            precondition(id == numberOfText.count)
            numberOfText.append(machines.count)
            machines.append(CompiledMachine(spec))
            return .success(machines.count - 1)
        }
    }

    /// Whether enough carried machines were added that `compact` should run.
    var needsCompaction: Bool {
        machines.count - fixedCount > Self.compactionThreshold
    }

    /// Keeps the fixed machines and the carried machines in `used`, renumbered; returns each kept
    /// number's new number (a machine not in `used` is gone, its number no longer valid).
    mutating func compact(keeping used: Set<Int>) -> [Int: Int] {
        var renumbered: [Int: Int] = [:]
        var kept = Array(machines[0..<fixedCount])
        for number in used.sorted() where number >= fixedCount && number < machines.count {
            renumbered[number] = kept.count
            kept.append(machines[number])
        }
        machines = kept
        // Texts are forgotten: a text seen again is compiled again.
        texts = NameTable()
        numberOfText = []
        return renumbered
    }
}
