import Foundation
import TraceJSON

/// Decoding: a recorded state back into the app's types (time travel), with
/// `JSONValueDecoder` against Foundation's `JSONDecoder` on the same bytes, in the same run.
enum DecodingBenchmark {
    struct Product: Codable, Equatable, Sendable {
        var sku: String
        var name: String
        var price: Double
        var stock: Int
        var rating: Double?
        var tags: [String]
    }

    enum Catalog: Codable, Equatable, Sendable {
        case idle
        case loading
        case loaded([Product])
        case failed(String)
    }

    struct CartLine: Codable, Equatable, Sendable {
        var sku: String
        var quantity: Int
        var note: String?
    }

    enum Checkout: Codable, Equatable, Sendable {
        case idle
        case ready(total: Double, currency: String)
    }

    struct ShopState: Codable, Equatable, Sendable {
        var user: String
        var catalog: Catalog
        var cart: [CartLine]
        var checkout: Checkout
        var lastError: String?
        var version: Int
    }

    /// A state with `products` products: prices in cents as decimals, some ratings missing,
    /// some names not ASCII, a cart, and a checkout that is `{"idle":{}}` or ready.
    static func state(products: Int) -> ShopState {
        let catalog = (0..<products).map { (index: Int) -> Product in
            let name: String = index % 4 == 0 ? "Café crème \(index)" : "Product \(index)"
            let price = Double(999 + index * 37) / 100
            let rating: Double? = index % 3 == 0 ? nil : 3.5 + Double(index % 3) / 2
            let tags: [String] = index % 2 == 0 ? ["new", "sale"] : ["classic"]
            return Product(
                sku: "SKU-\(1000 + index)", name: name, price: price, stock: index * 7 % 40, rating: rating, tags: tags)
        }
        let lines = (0..<min(products, 12)).map { (index: Int) -> CartLine in
            CartLine(sku: "SKU-\(1000 + index)", quantity: index % 3 + 1, note: index == 1 ? "gift wrap" : nil)
        }
        return ShopState(
            user: "ada@example.com", catalog: .loaded(catalog), cart: lines,
            checkout: products < 10 ? .idle : .ready(total: 123.45, currency: "EUR"), lastError: nil, version: 17)
    }

    static func run(into table: inout ResultTable) throws {
        for (label, products) in [("~500 B state", 3), ("~10 KB state", 100)] {
            let expected = state(products: products)
            let data = try JSONEncoder().encode(expected)
            let bytes = [UInt8](data)
            print("Decoding, \(label) (\(bytes.count) bytes of state)")
            let rewindDecoder = JSONValueDecoder()
            let foundationDecoder = JSONDecoder()
            // Both must read the same value back before either is timed.
            guard try rewindDecoder.decode(ShopState.self, from: bytes) == expected,
                try foundationDecoder.decode(ShopState.self, from: data) == expected
            else {
                throw BenchmarkError("the decoders disagree on the \(label)")
            }
            // The two are timed in alternation, batch by batch, so that a slow moment on this
            // shared machine falls on both; each keeps the median of its batches.
            let operations = products < 10 ? 10_000 : 500
            var sink = 0
            var rewind = Measurement(samples: [])
            var foundation = Measurement(samples: [])
            for round in 0..<9 {
                rewind.samples += try Measurement.run(runs: 1, operations: operations, warmUp: round == 0) {
                    for _ in 0..<operations { sink &+= try rewindDecoder.decode(ShopState.self, from: bytes).version }
                }.samples
                foundation.samples += try Measurement.run(runs: 1, operations: operations, warmUp: round == 0) {
                    for _ in 0..<operations {
                        sink &+= try foundationDecoder.decode(ShopState.self, from: data).version
                    }
                }.samples
            }
            precondition(sink != 0)
            let speedup = foundation.median / rewind.median
            table.add(
                "decode a state, \(label), vs JSONDecoder", figure: formatSeconds(rewind.median),
                baseline: "JSONDecoder \(formatSeconds(foundation.median))", ratio: "\(formatRatio(speedup)) faster",
                target: "≥ 5× faster", met: speedup >= 5)
        }
    }
}
