import Testing

@testable import SampleApp

@Suite struct TotalsTests {
    @Test func pricesTheLinesAndAddsTax() {
        let lines = [CartLine(sku: "MUG", quantity: 1), CartLine(sku: "SHIRT", quantity: 2)]
        let totals = Totals(lines: lines, catalog: FakeCatalogService.standardProducts)
        #expect(totals.itemCount == 3)
        #expect(totals.subtotal == Money(cents: 12_50 + 2 * 20_00))
        #expect(totals.tax == Money(cents: 2_63))
        #expect(totals.total == Money(cents: 52_50 + 2_63))
    }

    @Test func leavesOutLinesTheCatalogDoesNotPrice() {
        let lines = [CartLine(sku: "1234", quantity: 5), CartLine(sku: "HAT", quantity: 1)]
        let totals = Totals(lines: lines, catalog: FakeCatalogService.standardProducts)
        #expect(totals.itemCount == 1)
        #expect(totals.subtotal == Money(cents: 15_00))
    }
}
