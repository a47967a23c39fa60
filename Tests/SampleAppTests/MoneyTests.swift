import Testing

@testable import SampleApp

@Suite struct MoneyTests {
    @Test(arguments: [
        (0, "$0.00"), (5, "$0.05"), (399, "$3.99"), (2000, "$20.00"), (123_456, "$1234.56"), (-250, "-$2.50"),
    ])
    func formatsDollarsAndCents(cents: Int, text: String) {
        #expect(Money(cents: cents).description == text)
    }

    @Test func formatsTheExtremesWithoutTrapping() {
        #expect(Money(cents: .min).description == "-$92233720368547758.08")
        #expect(Money(cents: .max).description == "$92233720368547758.07")
    }

    @Test(arguments: [(5250, 263), (2000, 100), (1990, 100), (1989, 99), (10, 1), (9, 0), (-5250, -263)])
    func fivePercentRoundsHalfUp(cents: Int, tax: Int) {
        #expect(Money(cents: cents).percentage(5) == Money(cents: tax))
    }

    @Test func arithmeticSaturatesInsteadOfTrapping() {
        #expect(Money(cents: .max) + Money(cents: 1) == Money(cents: .max))
        #expect(Money(cents: .min) + Money(cents: -1) == Money(cents: .min))
        #expect(Money(cents: .max) * 2 == Money(cents: .max))
        #expect(Money(cents: .max) * -2 == Money(cents: .min))
        #expect(Money(cents: .max).percentage(5) > Money(cents: 0))
    }
}
