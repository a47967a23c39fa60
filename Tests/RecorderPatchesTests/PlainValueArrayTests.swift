import Recorder
import TestSupport
import Testing

@testable import RecorderPatches

/// Arrays of plain-value items (no storage of their own), whose elements the patch writer
/// compares by their bytes in blocks (`ElementRuns`): with and without padding, every state
/// rebuilt from the patches is the state version 1 records for the same actions.
@Suite struct PlainValueArrayTests {
    /// An item of plain values whose padding, if any, a test may overwrite.
    protocol Item: Codable, Equatable, Sendable {
        init(_ number: Int)
        /// Changes the item's data, only in its last bytes when `lastBytes` (where that is data).
        mutating func change(_ number: Int, lastBytes: Bool)
        /// The offsets of the bytes no member occupies.
        static var padding: [Int] { get }
    }

    /// No padding: every byte counts.
    struct Pair: Item {
        var id: Int
        var stock: Int
        init(_ number: Int) { (id, stock) = (number, number % 50) }
        mutating func change(_ number: Int, lastBytes: Bool) {
            // The last byte of the item alone: its highest byte on a little-endian machine.
            if lastBytes { stock ^= Int(bitPattern: UInt(number % 255 + 1) << 56) } else { stock &+= number }
        }
        static var padding: [Int] { [] }
    }

    /// Seven bytes of padding after the first member.
    struct SmallFirst: Item {
        var small: Int8
        var number: Int
        init(_ number: Int) { (small, self.number) = (Int8(truncatingIfNeeded: number), number) }
        mutating func change(_ number: Int, lastBytes: Bool) {
            if lastBytes { self.number ^= Int(bitPattern: UInt(number % 255 + 1) << 56) } else { small &+= 1 }
        }
        static var padding: [Int] { Array(1..<MemoryLayout<Self>.offset(of: \.number)!) }
    }

    /// Padding inside (before the `Int32`) and at the end (the stride past the size).
    struct Mixed: Item {
        var flag: Bool
        var count: Int32
        var short: Int16
        init(_ number: Int) {
            (flag, count, short) = (number % 2 == 0, Int32(number), Int16(truncatingIfNeeded: number))
        }
        mutating func change(_ number: Int, lastBytes: Bool) {
            if lastBytes { short ^= Int16(bitPattern: UInt16(number % 255 + 1) << 8) } else { flag.toggle() }
        }
        static var padding: [Int] {
            Array(1..<MemoryLayout<Self>.offset(of: \.count)!)
                + Array(MemoryLayout<Self>.size..<MemoryLayout<Self>.stride)
        }
    }

    struct Items<Element: Item>: Codable, Equatable, Sendable {
        var items: [Element]
    }

    /// The indices where a change is hardest to find: the ends, and each end of a block.
    static func edges(count: Int, stride: Int) -> [Int] {
        let block = ElementRuns.blockCount(stride: stride)
        var indices = [0, count - 1]
        for start in Swift.stride(from: block, to: count, by: block) { indices += [start - 1, start] }
        return indices
    }

    /// One random action: one to three items changed (often at an edge, often in their last
    /// bytes only), sometimes an item added or removed, sometimes nothing; padding sometimes
    /// overwritten, which changes bytes but no item.
    static func act<Element: Item>(on state: inout Items<Element>, _ random: inout SeededGenerator) {
        let count = state.items.count
        let edges = edges(count: count, stride: MemoryLayout<Element>.stride)
        switch Int.random(in: 0..<10, using: &random) {
        case 0: state.items.append(Element(Int.random(in: 0..<1_000, using: &random)))
        case 1: if count > 1 { state.items.remove(at: Int.random(in: 0..<count, using: &random)) }
        case 2: state.items.insert(Element(-1), at: edges.randomElement(using: &random)!)
        case 3: break
        default:
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let index =
                    Bool.random(using: &random)
                    ? edges.randomElement(using: &random)! : Int.random(in: 0..<count, using: &random)
                state.items[index].change(
                    Int.random(in: 1..<1_000, using: &random), lastBytes: Bool.random(using: &random))
            }
        }
        if !Element.padding.isEmpty && Int.random(in: 0..<3, using: &random) == 0 {
            let byte = UInt8.random(in: 0...255, using: &random)
            let stride = MemoryLayout<Element>.stride
            state.items.withUnsafeMutableBytes { bytes in
                for index in 0..<(bytes.count / stride) where index % 7 == 0 {
                    for offset in Element.padding { bytes[index * stride + offset] = byte }
                }
            }
        }
    }

    /// The same random actions recorded in version 2 and in version 1.
    static func record<Element: Item>(_: Element.Type, seed: UInt64) throws -> (patches: [UInt8], whole: [UInt8]) {
        var random = SeededGenerator(seed: seed)
        let initial = Items(items: (0..<700).map { Element($0) })
        let (wholeSink, patchSink) = (MemorySink(), MemorySink())
        let whole = Store(initialState: initial, name: "Items", recorder: try TraceRecorder(sink: wholeSink))
        let patched = Store(
            initialState: initial, name: "Items", recorder: try TraceRecorder(sink: patchSink, patches: .automatic()))
        for _ in 0..<150 {
            var copy = random
            whole.send("act") { Self.act(on: &$0, &copy) }
            patched.send("act") { Self.act(on: &$0, &random) }
        }
        return (patchSink.data, wholeSink.data)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func rebuiltStatesAreTheAppsStates(seed: UInt64) throws {
        for element in [Pair.self, SmallFirst.self, Mixed.self] as [any Item.Type] {
            let (patches, whole) = try Self.record(element, seed: seed)
            try PatchRecordingTests.expectSameStates(patches, as: whole)
        }
    }

    /// The runs counted in blocks are the runs counted element by element under the mask, from
    /// either end, whatever the padding holds.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func blockRunsAreElementRuns(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let stride = MemoryLayout<Mixed>.stride
        let mask = ElementMask.words(of: Mixed(0), type: Mixed.self, stride: stride)
        let old = (0..<1_000).map(Mixed.init)
        var new = old
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            let edges = Self.edges(count: new.count, stride: stride)
            new[edges.randomElement(using: &random)!].change(7, lastBytes: Bool.random(using: &random))
        }
        new.withUnsafeMutableBytes { bytes in
            for index in 0..<(bytes.count / stride) where Bool.random(using: &random) {
                for offset in Mixed.padding {
                    bytes[index * stride + offset] = UInt8.random(in: 0...255, using: &random)
                }
            }
        }
        let count = old.count
        let first = (0..<count).first { old[$0] != new[$0] } ?? count
        let last = (0..<count).first { old[count - 1 - $0] != new[count - 1 - $0] } ?? count
        old.withUnsafeBytes { oldBytes in
            new.withUnsafeBytes { newBytes in
                let (left, right) = (oldBytes.baseAddress!, newBytes.baseAddress!)
                #expect(ElementRuns.leading(left, right, count: count, stride: stride, mask: mask) == first)
                #expect(ElementRuns.trailing(left, right, count: count, stride: stride, mask: mask) == last)
            }
        }
    }
}
