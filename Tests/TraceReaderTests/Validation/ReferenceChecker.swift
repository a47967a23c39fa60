@testable import TraceReader

/// A second, plain implementation of the validity rules of shared/TRACE_FORMAT.md over parsed
/// `JSONValue`s: slow and simple, written from the format page, to compare the validator with on
/// traces that neither of them wrote (recorded, then mutated at random).
enum ReferenceChecker {
    typealias Found = ValidationTesting.Found

    static func problems(_ bytes: [UInt8]) -> [Found] {
        var lines: [(text: ArraySlice<UInt8>, terminated: Bool)] = []
        var start = 0
        for index in bytes.indices where bytes[index] == 0x0A {
            lines.append((bytes[start..<index], true))
            start = index + 1
        }
        if start < bytes.count { lines.append((bytes[start...], false)) }

        guard let first = lines.first, case .object(let header)? = try? JSONParser.parse(first.text),
            header["type"] == .string("header"), header["format"] == .string("rewind-trace"),
            header["version"]?.intValue == 1, case .object(let machineValues)? = header["machines"]
        else { return [Found(.notATrace, line: 1)] }
        var machines: [String: (cases: Set<String>, allowed: Set<String>)] = [:]
        for (store, machine) in machineValues {
            guard case .object(let table)? = machine["transitions"] else { return [Found(.notATrace, line: 1)] }
            var cases: Set<String> = []
            var allowed: Set<String> = []
            for (source, targets) in table {
                cases.insert(source)
                for target in targets.arrayValue ?? [] { allowed.insert(source + "→" + (target.stringValue ?? "")) }
            }
            machines[store] = (cases, allowed)
        }

        var found: [Found] = []
        var previous = 0
        var checkSeq = true
        var current: [String: String?] = [:]  // store → current case (nil: none), for seen stores
        let stringKeys = ["store", "action", "case", "from", "to", "source"]
        for (offset, line) in lines.enumerated().dropFirst() {
            let number = offset + 1
            if line.text.isEmpty || Array(line.text) == [0x0D] { continue }
            guard case .object(let event)? = try? JSONParser.parse(line.text) else {
                if !line.terminated {
                    found.append(Found(.truncated, line: number))
                } else {
                    found.append(Found(.malformed, line: number))
                    checkSeq = false
                }
                continue
            }
            let type = event["type"]?.stringValue
            let seq = event["seq"]?.intValue
            let store = event["store"]?.stringValue
            let isKnown = type == "register" || type == "transition"
            var wellFormed = type != nil && seq != nil
            if isKnown {
                for key in stringKeys where event[key] != nil && event[key]?.stringValue == nil { wellFormed = false }
                for key in ["seq", "cause"] where event[key] != nil && event[key]?.intValue == nil {
                    wellFormed = false
                }
                if let elapsed = event["elapsed"], case .number = elapsed {
                } else if event["elapsed"] != nil {
                    wellFormed = false
                }
                if let changed = event["changed"], changed.boolValue == nil { wellFormed = false }
                if let args = event["args"], args.objectValue == nil { wellFormed = false }
                var required = ["store", "state"]
                if type == "transition" { required += ["action", "changed"] }
                if let store, machines[store] != nil { required += type == "register" ? ["case"] : ["from", "to"] }
                for key in required where event[key] == nil { wellFormed = false }
            }
            guard wellFormed else {
                found.append(Found(.malformed, line: number, seq: seq, store: isKnown ? store : nil))
                checkSeq = false
                continue
            }
            let eventSeq = seq ?? 0
            if checkSeq && eventSeq != previous + 1 {
                found.append(Found(.seq, line: number, seq: eventSeq, store: isKnown ? store : nil))
            }
            previous = eventSeq
            checkSeq = true
            guard isKnown, let store else { continue }
            let machine = machines[store]
            if type == "register" {
                let caseName = event["case"]?.stringValue
                if let machine, let caseName, !machine.cases.contains(caseName) {
                    found.append(Found(.unknownCase, line: number, seq: eventSeq, store: store))
                }
                current[store] = .some(caseName)
                continue
            }
            let from = event["from"]?.stringValue
            let to = event["to"]?.stringValue
            guard let state = current[store] else {
                found.append(Found(.unregistered, line: number, seq: eventSeq, store: store))
                current[store] = .some(to)
                continue
            }
            if let machine, let from, let to {
                if !machine.cases.contains(from) || !machine.cases.contains(to) {
                    found.append(Found(.unknownCase, line: number, seq: eventSeq, store: store))
                } else {
                    if state != from { found.append(Found(.discontinuity, line: number, seq: eventSeq, store: store)) }
                    if !machine.allowed.contains(from + "→" + to) {
                        found.append(Found(.illegal, line: number, seq: eventSeq, store: store))
                    }
                }
            }
            current[store] = .some(to)
        }
        return found
    }
}
