import Recorder

/// Reading leaves (strings, numbers, booleans) off the tape for `JSONTapeDecoder` and its
/// containers, and the errors when a value is not what was asked for.
///
/// These live on the state, reached through a pointer, rather than on the decoder object: a
/// method call on a class instance held `unowned(unsafe)` retains and releases it, on every
/// member of every struct.
extension JSONTapeState {
    /// The elements of the array at tape index `array` (node `node`), each read by `element`.
    @inline(__always)
    mutating func leafArray<Element>(
        at array: Int, node: Int, _ element: (inout JSONTapeState, Int, Int, JSONTapeStep) throws -> Element
    ) throws -> [Element] {
        let count = tape[array].start
        // (An empty array is the shared empty storage, which `unsafeUninitializedCapacity`
        // would write its count into: a data race between threads, even if a harmless one.)
        guard count > 0 else { return [] }
        return try [Element](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            guard let elements = buffer.baseAddress else { return }
            var position = array &+ 1
            for index in 0..<count {
                // On a throw, `initializedCount` already says how many elements to destroy.
                (elements + index).initialize(to: try element(&self, position, node, .index(index)))
                initializedCount = index &+ 1
                position = next(after: position)
            }
        }
    }

    mutating func decodeString(at index: Int, _ parent: Int, _ step: JSONTapeStep) throws -> String {
        guard tape[index].kind == .string else { throw mismatch(String.self, at: index, parent, step) }
        return string(at: index)
    }

    mutating func decodeBool(at index: Int, _ parent: Int, _ step: JSONTapeStep) throws -> Bool {
        let kind = tape[index].kind
        if kind == .true { return true }
        if kind == .false { return false }
        throw mismatch(Bool.self, at: index, parent, step)
    }

    @inline(__always)
    mutating func decodeInteger<T: FixedWidthInteger>(
        at index: Int, as type: T.Type, _ parent: Int, _ step: JSONTapeStep
    ) throws -> T {
        let entry = tape[index]
        guard entry.kind == .number else { throw mismatch(T.self, at: index, parent, step) }
        switch JSONDecodedNumber.integer(base, from: entry.start, to: entry.end, as: T.self) {
        case .success(let value): return value
        case .failure(let problem): throw corrupted(problem.message, parent, step)
        }
    }

    @inline(__always)
    mutating func decodeFloat<T: BinaryFloatingPoint & LosslessStringConvertible>(
        at index: Int, as type: T.Type, _ parent: Int, _ step: JSONTapeStep
    ) throws -> T {
        let entry = tape[index]
        if entry.kind == .number {
            switch JSONDecodedNumber.floatingPoint(base, from: entry.start, to: entry.end, as: T.self) {
            case .success(let value): return value
            case .failure(let problem): throw corrupted(problem.message, parent, step)
            }
        }
        if entry.kind == .string {
            // The non-finite values, as `JSONOutput` and `JSONEncoder`'s convertToString write them.
            switch string(at: index) {
            case "NaN": return .nan
            case "Infinity": return .infinity
            case "-Infinity": return -.infinity
            default: break
            }
        }
        throw mismatch(T.self, at: index, parent, step)
    }

    // MARK: Errors

    /// The value at `index` is not a `T`: `valueNotFound` for null, `typeMismatch` otherwise, as
    /// `JSONDecoder` reports them.
    mutating func mismatch(_ type: Any.Type, at index: Int, _ parent: Int, _ step: JSONTapeStep) -> DecodingError {
        let entry = tape[index]
        let codingPath = codingPath(parent, then: step)
        if entry.kind == .null {
            return DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "Expected \(type) value but found null instead."))
        }
        return DecodingError.typeMismatch(
            type,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "Expected to decode \(type) but found \(entry.kindName) instead."))
    }

    mutating func corrupted(_ message: String, _ parent: Int, _ step: JSONTapeStep) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: codingPath(parent, then: step), debugDescription: message))
    }
}
