import Foundation
import Recorder
import TestSupport
import Testing
import TraceJSON
import TraceReader

/// `Date`, `Decimal`, `URL` and `Data` are written as a person reads them and as `JSONDecoder`
/// expects them, and read back exactly by `TraceFile.state(of:atStep:as:)`.
@Suite struct FoundationValueEncodingTests {
    struct Values: Codable, Equatable, Sendable {
        var date: Date
        var price: Decimal
        var link: URL
        var blob: Data
    }

    static let values = Values(
        date: Date(timeIntervalSinceReferenceDate: 785_592_800.125), price: Decimal(string: "19.99")!,
        link: URL(string: "https://example.com/a?b=c#d")!, blob: Data("hi\u{0}!".utf8))

    @Test func eachIsWrittenAsAPersonReadsIt() throws {
        let text = try StateEncoder().encodeToString(Self.values)
        #expect(
            text
                == #"{"date":"2025-11-23T12:13:20.125Z","price":19.99,"link":"https://example.com/a?b=c#d","blob":"aGkAIQ=="}"#
        )
    }

    @Test func jsonDecoderReadsThemWithTheStrategiesTheDocsName() throws {
        let bytes = Data(try StateEncoder().encode(Self.values))
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            return try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
        }
        let decoded = try decoder.decode(Values.self, from: bytes)
        #expect(decoded.price == Self.values.price)
        #expect(decoded.link == Self.values.link)
        #expect(decoded.blob == Self.values.blob)
        // Foundation's ISO 8601 parser keeps the milliseconds; the exact Double is the trace
        // reader's (below).
        #expect(abs(decoded.date.timeIntervalSince(Self.values.date)) < 0.001)
    }

    /// Dates of every kind read back as the very same `Double`.
    @Test func datesReadBackExactly() throws {
        var generator = SeededGenerator(seed: 0xDA7E)
        var seconds: [Double] = [
            0, -0.1, 0.1, 785_592_800.125, -785_592_800.125, 1e-7, -1e-7, .leastNonzeroMagnitude,
            -.leastNonzeroMagnitude, 1, -1, 59.999999,
            Date.distantPast.timeIntervalSinceReferenceDate, Date.distantFuture.timeIntervalSinceReferenceDate,
            Date(timeIntervalSince1970: 0).timeIntervalSinceReferenceDate, -63_113_904_000.5,
        ]
        for _ in 0..<3_000 {
            switch generator.next() % 4 {
            case 0: seconds.append(Double(Int64(bitPattern: generator.next()) % 2_000_000_000) / 1_000)
            case 1:
                seconds.append(Double(generator.next() % 1_000_000_000) + Double(generator.next() % 1_000_000) / 1e6)
            case 2: seconds.append(Double(bitPattern: generator.next() >> 2).truncatingRemainder(dividingBy: 6e10))
            default: seconds.append(Double(Int32(truncatingIfNeeded: generator.next())) * 0.37)
            }
        }
        let dates = seconds.filter(\.isFinite).map { Date(timeIntervalSinceReferenceDate: $0) }
        let bytes = try StateEncoder().encode(dates)
        let texts = try JSONDecoder().decode([String].self, from: Data(bytes))
        for text in texts {
            #expect(text.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3,}Z/) != nil, "\(text)")
        }
        let decoded = try JSONValueDecoder().decode([Date].self, from: bytes)
        #expect(decoded.count == dates.count)
        for (got, want) in zip(decoded, dates)
        where got.timeIntervalSinceReferenceDate.bitPattern
            != want.timeIntervalSinceReferenceDate.bitPattern
        {
            // -0.0 reads back as 0.0, which is the same Date.
            guard want.timeIntervalSinceReferenceDate != 0 else { continue }
            Issue.record("\(want.timeIntervalSinceReferenceDate) read back as \(got.timeIntervalSinceReferenceDate)")
        }
    }

    @Test func theCalendarMatchesFoundations() throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        var generator = SeededGenerator(seed: 0xCA1)
        for _ in 0..<2_000 {
            let whole = Double(Int64(bitPattern: generator.next()) % 12_000_000_000)
            let text = try StateEncoder().encodeToString(Date(timeIntervalSinceReferenceDate: whole))
            let expected = formatter.string(from: Date(timeIntervalSinceReferenceDate: whole))
            #expect(text == "\"" + expected.dropLast() + ".000Z\"", "\(whole)")
        }
    }

    @Test func aDateOutsideFourDigitYearsStaysANumber() throws {
        let far = Date(timeIntervalSinceReferenceDate: 1e15)
        #expect(try StateEncoder().encodeToString(far) == "1000000000000000")
        #expect(try JSONValueDecoder().decode(Date.self, from: Array("1000000000000000".utf8)) == far)
    }

    @Test func decimalsKeepTheirDigits() throws {
        let texts = [
            "19.99", "0.1", "-0.001", "123456789012345678901234567890.12345678", "0", "1000000000000000000000",
        ]
        for text in texts {
            let decimal = try #require(Decimal(string: text))
            let written = try StateEncoder().encodeToString(decimal)
            #expect(written == decimal.description)
            #expect(try JSONValueDecoder().decode(Decimal.self, from: Array(written.utf8)) == decimal)
            #expect(try JSONDecoder().decode(Decimal.self, from: Data(written.utf8)) == decimal)
        }
        #expect(try StateEncoder().encodeToString(Decimal.nan) == #""NaN""#)
        #expect(try JSONValueDecoder().decode(Decimal.self, from: Array(#""NaN""#.utf8)).isNaN)
    }

    /// A URL is its string; one made relative to a base keeps the form its own `Codable` writes
    /// (resolving it would take more code than the Recorder may weigh), and reads back as well.
    @Test func urlsAreStringsAndRelativeOnesReadBack() throws {
        for text in ["https://example.com/a b?q=1#f", "file:///tmp/x.json", "mailto:ada@example.com", "relative/path"] {
            let url = try #require(URL(string: text) ?? URL(string: text.replacingOccurrences(of: " ", with: "%20")))
            let written = try StateEncoder().encode(url)
            #expect(try JSONDecoder().decode(String.self, from: Data(written)) == url.absoluteString)
            #expect(try JSONValueDecoder().decode(URL.self, from: written) == url)
        }
        let relative = try #require(URL(string: "../g?y", relativeTo: URL(string: "http://a/b/c/d;p?q")))
        let written = try StateEncoder().encode(relative)
        #expect(String(decoding: written, as: UTF8.self) == #"{"relative":"../g?y","base":"http://a/b/c/d;p?q"}"#)
        #expect(try JSONValueDecoder().decode(URL.self, from: written).absoluteString == relative.absoluteString)
    }

    @Test func dataIsBase64() throws {
        var generator = SeededGenerator(seed: 0xB64)
        for count in 0..<40 {
            let data = Data((0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            let written = try StateEncoder().encode(data)
            #expect(String(decoding: written, as: UTF8.self) == "\"\(data.base64EncodedString())\"")
            #expect(try JSONValueDecoder().decode(Data.self, from: written) == data)
            #expect(try JSONDecoder().decode(Data.self, from: Data(written)) == data)
        }
    }

    /// The whole way: recorded by a store, read back from the trace in the app's own type.
    @Test func aRecordedStateReadsBackExactly() throws {
        let sink = MemorySink()
        let store = Store(initialState: Self.values, name: "Values", recorder: try TraceRecorder(sink: sink))
        store.send("later") {
            $0.date = Date(timeIntervalSinceReferenceDate: 785_592_801.123456789)
            $0.price = Decimal(string: "0.11")!
            $0.link = URL(string: "page", relativeTo: URL(string: "https://example.com/docs/")!)!
        }
        let trace = try TraceFile(bytes: sink.data)
        #expect(try trace.state(of: "Values", atStep: 1, as: Values.self) == Self.values)
        let later = try #require(try trace.state(of: "Values", atStep: 2, as: Values.self))
        #expect(later.date == store.state.date)
        #expect(later.price == store.state.price)
        #expect(later.link.absoluteString == store.state.link.absoluteString)
        #expect(later.blob == store.state.blob)
    }
}
