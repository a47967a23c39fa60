import Testing

@testable import TraceReader

@Suite struct IntegerColumnTests {
    /// A column and a plain array fed the same values must read the same.
    private func check(_ values: [Int]) -> IntegerColumn {
        var column = IntegerColumn()
        for value in values { column.append(value) }
        #expect(column.count == values.count)
        for index in values.indices where column[index] != values[index] {
            Issue.record("element \(index): \(column[index]), expected \(values[index])")
            break
        }
        return column
    }

    @Test func valuesThatCountUpCostNothingPerElement() {
        let column = check(Array(2..<100_002))
        #expect(column.isIdentity(offset: 2))
        #expect(column.byteCount <= 16)
    }

    @Test func aFewJumpsCostARunEach() {
        var values = Array(1...1000)
        values += Array(1005...3000)
        values += Array(3002...9000)
        let column = check(values)
        #expect(!column.isIdentity(offset: 1))
        #expect(column.byteCount == 3 * 16)
        #expect(column.firstIndex(above: 1004, in: 0..<column.count) == 1000)
        #expect(column.firstIndex(above: 1005, in: 0..<column.count) == 1001)
        #expect(column.firstIndex(above: .max, in: 0..<column.count) == column.count)
        #expect(column.firstIndex(above: .min, in: 0..<column.count) == 0)
    }

    @Test func valuesThatJumpAboutBecomeAnArrayOf32BitIntegers() {
        let values = (0..<10_000).map { ($0 &* 7919) % 10_007 }
        let column = check(values)
        #expect(column.byteCount == values.count * 4)
    }

    @Test func valuesBeyond32BitsWidenTheArray() {
        var values = (0..<1000).map { ($0 &* 7919) % 10_007 }
        values.append(Int(Int32.max) + 1)
        values += [-5, .min, .max, 0]
        let column = check(values)
        #expect(column.byteCount == values.count * 8)
    }

    @Test func runsNearTheLargestIntegerDoNotOverflow() {
        _ = check([.max - 2, .max - 1, .max, .min, .min + 1])
    }

    @Test func appendingAColumnShiftsEachElement() {
        let parts = [Array(0..<50), [7, 3, 9], Array(100..<400), (0..<500).map { ($0 &* 31) % 97 }]
        var joined = IntegerColumn()
        var expected: [Int] = []
        for (shift, part) in zip([10, -4, 0, 1000], parts) {
            var column = IntegerColumn()
            for value in part { column.append(value) }
            joined.append(contentsOf: column, adding: shift)
            expected += part.map { $0 + shift }
        }
        #expect(joined.count == expected.count)
        #expect(expected.indices.allSatisfy { joined[$0] == expected[$0] })
    }
}
