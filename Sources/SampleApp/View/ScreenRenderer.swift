@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) internal import ToolSupport

/// Draws the screen as text from a view state: catalog, cart, checkout, wishlist and a status
/// line.
///
/// The same view state always gives the same text (no time, no randomness), which is what lets
/// `replay` draw a recorded step exactly as the app drew it. Every string that comes from a
/// state goes through `TerminalText.safe`, since a replayed trace may hold anything.
struct ScreenRenderer: Sendable {
    /// The screen's width in columns.
    static let width = 56

    var style: TextStyle = .plain

    /// The screen for `snapshot`.
    func render(_ snapshot: ShopSnapshot) -> String {
        render(ShopViewState(snapshot))
    }

    /// The screen for `view`, lines ending in `\n`.
    func render(_ view: ShopViewState) -> String {
        var lines = [style.bold("REWIND SHOP"), String(repeating: "=", count: Self.width)]
        lines += catalogLines(view.catalog)
        lines += cartLines(view.cart)
        lines += checkoutLines(view.checkout)
        lines += wishlistLines(view.wishlist)
        lines.append(String(repeating: "-", count: Self.width))
        lines.append(statusLine(view))
        return lines.map { $0 + "\n" }.joined()
    }

    private func catalogLines(_ catalog: CatalogViewState) -> [String] {
        var lines = ["", style.bold("Catalog")]
        switch catalog {
        case .loading:
            lines.append("  " + style.dim("loading..."))
        case .loaded(let rows) where rows.isEmpty:
            lines.append("  " + style.dim("no products"))
        case .loaded(let rows):
            lines += rows.map { row(pad(safe($0.sku), 10) + safe($0.name), safe($0.price)) }
        case .failed(let message):
            lines.append("  " + style.red("unavailable: " + safe(message)))
        }
        return lines
    }

    private func cartLines(_ cart: CartViewState) -> [String] {
        var lines = ["", style.bold("Cart")]
        if cart.isEmpty { lines.append("  " + style.dim("empty")) }
        lines += cart.rows.map { row(pad("\($0.quantity) x \(safe($0.sku))", 16) + safe($0.name), safe($0.amount)) }
        if let notice = cart.notice { lines.append("  " + style.yellow(safe(notice))) }
        return lines
    }

    private func checkoutLines(_ checkout: CheckoutViewState) -> [String] {
        var lines = ["", style.bold("Checkout")]
        if checkout.lines.isEmpty { lines.append("  " + style.dim("no total yet")) }
        lines += checkout.lines.map { row($0.label, $0.amount) }
        return lines
    }

    private func wishlistLines(_ wishlist: WishlistViewState) -> [String] {
        var lines = ["", style.bold("Wishlist")]
        if wishlist.rows.isEmpty { lines.append("  " + style.dim("empty: 'wish SKU' saves a product for later")) }
        lines += wishlist.rows.map { row(pad(safe($0.sku), 10) + safe($0.name), safe($0.price)) }
        return lines
    }

    private func statusLine(_ view: ShopViewState) -> String {
        let text = safe(view.status)
        switch view.tone {
        case .hint: return text
        case .busy: return style.dim(text)
        case .problem: return style.red(text)
        case .success: return style.green(text)
        }
    }

    /// `left` indented by two, and `right` aligned to the screen's right edge.
    private func row(_ left: String, _ right: String) -> String {
        let gap = max(1, Self.width - 2 - left.count - right.count)
        return "  " + left + String(repeating: " ", count: gap) + right
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    private func safe(_ text: String) -> String {
        TerminalText.safe(text)
    }
}
