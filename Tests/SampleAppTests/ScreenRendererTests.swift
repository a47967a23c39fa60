import Testing

@testable import SampleApp

@Suite struct ScreenRendererTests {
    let snapshot = ShopSnapshot(
        catalog: .loaded(products: FakeCatalogService.standardProducts),
        cart: CartState(lines: [CartLine(sku: "SHIRT", quantity: 2)], notFound: ["1234"]),
        checkout: .ready(
            totals: Totals(lines: [CartLine(sku: "SHIRT", quantity: 2)], catalog: FakeCatalogService.standardProducts)))

    @Test func drawsEveryPanelAsPlainText() {
        let screen = ScreenRenderer().render(snapshot)
        #expect(!screen.contains("\u{1B}"))
        for expected in [
            "Catalog", "STICKERS  Sticker pack", "2 x SHIRT", "$40.00", "SKU '1234' not found", "Total", "$42.00",
            "Type 'pay' to pay.",
        ] {
            #expect(screen.contains(expected), "missing \(expected)")
        }
        #expect(screen.split(separator: "\n").allSatisfy { $0.count <= ScreenRenderer.width })
        #expect(screen.hasSuffix("\n"))
    }

    @Test func colorsOnlyWhenAsked() {
        let screen = ScreenRenderer(style: TextStyle(enabled: true)).render(snapshot)
        #expect(screen.contains("\u{1B}[1mCatalog\u{1B}[0m"))
    }

    @Test func escapesControlCharactersFromStates() {
        let hostile = ShopSnapshot(
            catalog: .loaded(products: [Product(sku: "X\u{1B}[2J", name: "evil\u{7}\nname", price: Money(cents: .max))]
            ),
            cart: CartState(lines: [CartLine(sku: "X\u{1B}[2J", quantity: .max)], notFound: ["\u{9B}31m"]),
            checkout: .failed(
                totals: Totals(itemCount: .min, subtotal: Money(cents: .min), tax: .zero, total: .zero),
                reason: "\u{1B}]0;title\u{7}"))
        let screen = ScreenRenderer().render(hostile)
        #expect(!screen.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(!screen.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) })
        #expect(screen.contains("X\\u{1b}[2J"))
        #expect(screen.contains("evil\\u{7}\\nname"))
    }

    @Test func theSameStatesDrawTheSameScreen() {
        #expect(
            ScreenRenderer().render(snapshot)
                == ScreenRenderer().render(
                    ShopSnapshot(catalog: snapshot.catalog, cart: snapshot.cart, checkout: snapshot.checkout)))
        #expect(ScreenRenderer().render(snapshot) != ScreenRenderer().render(ShopSnapshot()))
    }
}
