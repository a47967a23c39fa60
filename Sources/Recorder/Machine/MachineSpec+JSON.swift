extension MachineSpec {
    /// Writes the machine as a trace describes it (shared/TRACE_FORMAT.md, "the header"):
    /// `{"initial":CASE,"transitions":{CASE:[CASE,...],...}}`, the cases in declaration order.
    /// The one place a machine is written: the header's `machines` and a register's `machine`.
    func appendJSON(to out: JSONOutput) {
        out.append("{\"initial\":")
        out.appendRareString(initial)
        out.append(",\"transitions\":{")
        for (caseIndex, source) in cases.enumerated() {
            if caseIndex > 0 { out.append(UInt8(ascii: ",")) }
            out.appendRareString(source)
            out.append(":[")
            for (targetIndex, target) in (transitions[source] ?? []).enumerated() {
                if targetIndex > 0 { out.append(UInt8(ascii: ",")) }
                out.appendRareString(target)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append("}}")
    }

    /// The machine's JSON bytes.
    var json: [UInt8] {
        let storage = JSONOutputStorage(capacity: 256)
        appendJSON(to: storage.output)
        return Array(storage.output.bytes)
    }
}
