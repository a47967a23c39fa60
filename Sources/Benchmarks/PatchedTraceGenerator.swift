import Foundation

/// Writes a version 2 benchmark trace directly (the recorder writes version 1 for now): an
/// inventory store of 1,000 items (a state of about 60 KB) changed one count at a time, each
/// change a patch of about 55 bytes, with a whole state every 1,025th event as the format asks
/// (the 1,024 patches after it weigh less than it); and a cart store written whole, one event in
/// four. So moving to a step may mean up to 1,024 patches to apply after a whole state.
enum PatchedTraceGenerator {
    /// The most patches after a whole state, as the format says.
    static let patchesPerWholeState = 1024

    /// Writes a trace of about `bytes` bytes at `path`; returns its event count and the step of
    /// the event that has the most patches before it since its store's whole state.
    static func write(path: String, bytes: Int) throws -> (events: Int, farthestFromWhole: Int) {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        guard let file = FileHandle(forWritingAtPath: path) else { throw BenchmarkError("cannot write \(path)") }
        defer { try? file.close() }
        var buffer = Data()
        func line(_ text: String) throws {
            buffer.append(contentsOf: text.utf8)
            buffer.append(0x0A)
            if buffer.count >= 4 << 20 {
                try file.write(contentsOf: buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        var counts = [Int](repeating: 0, count: 1000)
        func inventory() -> String {
            let items = counts.enumerated().map { index, count in
                #"{"sku":"SKU-\#(index)","count":\#(count),"name":"Item \#(index), a longer name"}"#
            }
            return #"{"items":[\#(items.joined(separator: ","))]}"#
        }
        try line(#"{"type":"header","format":"rewind-trace","version":2,"app":"Bench","machines":{}}"#)
        try line(#"{"type":"register","seq":1,"elapsed":0,"store":"Inventory","state":\#(inventory())}"#)
        try line(#"{"type":"register","seq":2,"elapsed":0,"store":"CartStore","state":{"skus":[],"total":0}}"#)
        var seq = 2
        var patches = 0
        var farthest = 0
        var written = 0
        while written < bytes {
            seq += 1
            let elapsed = Double(seq) / 1000
            if seq % 4 == 0 {
                let text =
                    #"{"type":"transition","seq":\#(seq),"elapsed":\#(elapsed),"store":"CartStore","action":"add","changed":true,"state":{"skus":["SKU-\#(seq % 97)","SKU-\#(seq % 89)"],"total":\#(seq % 1000).99},"source":"Cart.swift:20"}"#
                try line(text)
                written += text.utf8.count + 1
                continue
            }
            let item = (seq * 7) % counts.count
            counts[item] += 1
            let text: String
            if patches == patchesPerWholeState {
                patches = 0
                text =
                    #"{"type":"transition","seq":\#(seq),"elapsed":\#(elapsed),"store":"Inventory","action":"count","changed":true,"state":\#(inventory()),"source":"Inventory.swift:12"}"#
            } else {
                patches += 1
                if patches == patchesPerWholeState { farthest = seq }
                text =
                    #"{"type":"transition","seq":\#(seq),"elapsed":\#(elapsed),"store":"Inventory","action":"count","changed":true,"patch":[{"op":"replace","path":"/items/\#(item)/count","value":\#(counts[item])}],"source":"Inventory.swift:12"}"#
            }
            try line(text)
            written += text.utf8.count + 1
        }
        try file.write(contentsOf: buffer)
        return (seq, farthest)
    }
}
