/// An amount of money in whole cents, so that sums and tax are exact.
///
/// Arithmetic saturates instead of trapping: amounts read back from a trace may be anything, and
/// drawing them must not crash the app.
struct Money: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// The amount in cents: `Money(cents: 20_00)` is $20.00.
    var cents: Int

    static let zero = Money(cents: 0)

    static func < (lhs: Money, rhs: Money) -> Bool {
        lhs.cents < rhs.cents
    }

    static func + (lhs: Money, rhs: Money) -> Money {
        let (sum, overflow) = lhs.cents.addingReportingOverflow(rhs.cents)
        guard overflow else { return Money(cents: sum) }
        return Money(cents: rhs.cents > 0 ? .max : .min)
    }

    static func * (lhs: Money, quantity: Int) -> Money {
        let (product, overflow) = lhs.cents.multipliedReportingOverflow(by: quantity)
        guard overflow else { return Money(cents: product) }
        return Money(cents: (lhs.cents < 0) == (quantity < 0) ? .max : .min)
    }

    /// This amount's share at `percent`, rounded half up to the cent: 5% of $52.50 is $2.63.
    func percentage(_ percent: Int) -> Money {
        let (scaled, overflow) = cents.multipliedReportingOverflow(by: percent)
        guard !overflow else { return Money(cents: cents / 100 * percent) }
        let (quotient, remainder) = scaled.quotientAndRemainder(dividingBy: 100)
        return Money(cents: remainder >= 50 ? quotient + 1 : remainder <= -50 ? quotient - 1 : quotient)
    }

    /// `$20.00`, `-$3.99`.
    var description: String {
        let (dollars, rest) = cents.magnitude.quotientAndRemainder(dividingBy: 100)
        return (cents < 0 ? "-$" : "$") + String(dollars) + "." + (rest < 10 ? "0" : "") + String(rest)
    }
}
