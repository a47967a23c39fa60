import Foundation
import Recorder
import TestSupport
import Testing
import TraceJSON
import TraceQueries
import TraceReader

// Every code block of Sources/TraceReader/Documentation.docc, word for word, in functions that
// are compiled with the tests (and not run: they name files of an app's repository). A block
// that stops compiling fails the build; `DocumentationSnippetTests` fails when a block of the
// articles is missing here, so the two cannot drift apart. Lines after a block only silence
// "never used" warnings.

/// A state machine like the app's, for the decoding example.
private enum CatalogState: Decodable, StateMachine {
    case idle, loading, loaded([String]), failed(String)

    enum Case: String, CaseIterable, Sendable { case idle, loading, loaded, failed }
    var currentCase: Case {
        switch self {
        case .idle: .idle
        case .loading: .loading
        case .loaded: .loaded
        case .failed: .failed
        }
    }
    static var initialCase: Case { .idle }
    static func transitions(from source: Case) -> [Case] { source == .loading ? [.loaded, .failed] : [.loading] }
}

private func landingPage() throws {
    let trace = try TraceFile(path: "traces/happy-path.jsonl")
    let diff = StateDiff(from: trace.appStateText(atStep: 8), to: trace.appStateText(atStep: 9))
    print(StateDiffPrinter(width: 100).text(diff))
    let report = try TraceValidator().validate(file: "traces/happy-path.jsonl")
    print(report.passes())
}

private func jsonLandingPage() throws {
    let before = try JSONParser.parse(#"{"count": 1}"#)
    let after = try JSONParser.parse(#"{"count": 2}"#)
    let diff = StateDiff(from: before, to: after)
    print(JSONPatch.text(diff))
}

private func readingTraces() throws {
    let trace = try TraceFile(path: "traces/happy-path.jsonl")
    print(trace.header.machines.keys, trace.eventCount, trace.lastStep)
    let state = trace.appState(atStep: 9)  // store name → state, as JSONValue
    let cart = trace.state(of: "CartStore", atStep: 9)
    if let event = trace.event(at: 4) { print(event.store ?? "", event.action ?? "", event.from ?? "", event.to ?? "") }
    _ = (state, cart)
}

private func readingVersionTwo(_ trace: TraceFile) {
    do {
        if let cart = try trace.readState(of: "CartStore", atStep: 120) { print(JSONPrinter.pretty(cart)) }
    } catch {
        print(error)  // run.jsonl:98: the patch of "remove" on "CartStore" does not apply to its state before it …
    }
}

private func readingLargeStates(_ trace: TraceFile) {
    let text = trace.appStateText(atStep: 9)  // JSONText: no tree
    let catalog = trace.stateText(of: "CatalogStore", atStep: 9)
    JSONPrinter.pretty(text) { piece in print(String(decoding: piece, as: UTF8.self), terminator: "") }
    let event = trace.eventWithoutState(at: 4)  // the event, its state left unread
    _ = (catalog, event)
}

private func decodingAState(_ trace: TraceFile) throws {
    let decoded = try trace.state(of: "CatalogStore", atStep: 3, as: CatalogState.self)
    _ = decoded
}

private func askingQuestions(_ trace: TraceFile) throws {
    let history = try ValueHistory(trace: trace, path: StatePath(parsing: "CartStore.lines[0].quantity"))
    for change in history.changes() { print(change.step, change.event.action ?? "") }
    let chain = CauseChain(of: 5, in: trace)
    let stats = TraceStatistics(trace: trace)
    let streamed = try TraceStatistics(path: "run.jsonl")  // the same counts; `issues` as trace.issues
    _ = (chain, stats, streamed)
}

private func diffingStates(_ trace: TraceFile) {
    let diff = StateDiff(from: trace.appStateText(atStep: 8), to: trace.appStateText(atStep: 9))
    print(StateDiffPrinter(width: 100).text(diff))  // a folded tree, - and + lines
    for change in diff.changes { print(change.path, change.before ?? .null, change.after ?? .null) }
    let patch = JSONPatch.make(diff)  // RFC 6902 operations, as a JSONValue
    print(JSONPatch.text(diff))  // the same, printed
    _ = patch
}

private func diffingInPieces(_ diff: StateDiff) {
    let printer = StateDiffPrinter(width: 100)
    printer.write(diff) { piece in print(String(decoding: piece, as: UTF8.self), terminator: "") }
    printer.writePaths(diff) { piece in print(String(decoding: piece, as: UTF8.self), terminator: "") }
    JSONPatch.write(diff) { piece in print(String(decoding: piece, as: UTF8.self), terminator: "") }
}

private func resolvingPaths(_ trace: TraceFile) throws {
    let path = try StatePath(parsing: "CartStore.lines.2.quantity")
    let quantity = path.resolve(in: trace.appStateText(atStep: 9))  // a JSONText, or nil
    _ = quantity
}

private func followingItems(_ trace: TraceFile) throws {
    let mug = try StatePath(parsing: #"CartStore.lines[id: "MUG"].quantity"#)
    let history = try ValueHistory(trace: trace, path: mug)  // follows MUG wherever it moves
    let pointer = try mug.jsonPointer(in: .object(try trace.readAppState(atStep: 9)))  // "/CartStore/lines/1/quantity"
    _ = (history, pointer)
}

private func validatingTraces() throws {
    let report = try TraceValidator().validate(file: "traces/run.jsonl")
    #expect(report.passes())  // no error; passes(strict: true) also fails on warnings
    for problem in report.problems { print(problem) }  // 17: error: illegal transition …
}

private func validatingWithASpec(path: String) throws {
    let spec = try SpecFile.read(at: "spec.json")  // {"machines": {...}, "rules": [...]}
    let report = try TraceValidator(machines: spec.machines, rules: spec.rules).validate(file: path)
    _ = report
}

private func measuringCoverage() {
    let coverage = TraceCoverage.measure(files: ["traces/browse.jsonl", "traces/checkout.jsonl"])
    #expect((coverage.percent ?? 0) >= 80, "\(coverage.machines.flatMap(\.neverTaken))")
}

private func streamingATrace() throws {
    let report = try TraceStream(path: "traces/big.jsonl").forEachLine { line in
        if let event = line.event { print(event.seq, line.problems.map(\.kind)) }
        return true
    }
    _ = report
}

private func indexingInTheBackground() throws {
    let indexing = try TraceIndexing(path: "traces/big.jsonl")
    print(indexing.first.eventCount, indexing.expectedLastStep)  // the first megabyte's events
    indexing.start()
    let whole = try indexing.wait().get()
    _ = whole
}

/// The golden-trace example is a test of an app's own suite: compiled here, never run (it names
/// files of that app's repository).
@Suite(.disabled("documentation: the example names an app's files")) struct GoldenTraceSnippet {
    @Test func checkoutMatchesItsGoldenTrace() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink, machines: ["CatalogStore": CatalogState.self])
        try runCheckout(recordingTo: recorder)  // the app's scenario, on stores made with it
        try GoldenTrace.check(sink, against: "Tests/Golden/checkout.jsonl", ignoring: ["CartStore.lines[*].addedAt"])
    }

    private func runCheckout(recordingTo recorder: TraceRecorder) throws {}
}

// ReplayingSessions.md: an app's stores and fakes, as small as the examples need.
private struct Cart: Codable, Equatable, Sendable {
    var lines: [String: Int] = [:]
}

private final class CartStore: Store<Cart>, @unchecked Sendable {
    // @unchecked: adds nothing to Store.
    init(recorder: TraceRecorder?) {
        super.init(initialState: Cart(), recorder: recorder)
    }

    func add(_ sku: String, quantity: Int) {
        send(args: ["sku": sku, "quantity": quantity]) { $0.lines[sku, default: 0] += quantity }
    }
}

private final class FakePaymentService: @unchecked Sendable {
    // @unchecked: never used (the snippets are compiled, not run).
    var pending: [() -> Void] = []

    func answerPendingCharge() {
        if !pending.isEmpty { pending.removeFirst()() }
    }
}

private final class CheckoutStore: Store<Bool>, @unchecked Sendable {
    // @unchecked: adds only an immutable reference to Store.
    let payments: FakePaymentService

    init(payments: FakePaymentService, recorder: TraceRecorder?) {
        self.payments = payments
        super.init(initialState: false, recorder: recorder)
    }

    func pay() {
        payments.pending.append { [weak self] in self?.send("didPay") { $0 = true } }
    }
}

private enum TallyAction: Codable {
    case add(amount: Int)
}

private final class Tally {
    func send(_ action: TallyAction) {}
}

/// Called by a test with each recorded session: one line to add a session recorded by QA.
func checkReplaysExactly(path: String) throws {
    let replay = try TraceReplay(trace: path, ignoring: ["CartStore.lines[*].addedAt"])
    let outcome = try replay.run { recorder in
        let payments = FakePaymentService()  // the app's fakes, injected
        let cart = CartStore(recorder: recorder)
        let checkout = CheckoutStore(payments: payments, recorder: recorder)
        var table = ReplayTable()
        table.on("CartStore", "add") { args in
            cart.add(try args.string("sku"), quantity: try args.int("quantity"))
        }
        table.on("CheckoutStore", "pay") { _ in checkout.pay() }
        table.on("CheckoutStore", "didPay") { _ in payments.answerPendingCharge() }
        table.byItself("CheckoutStore", "didCalculate")
        return table
    }
    #expect(outcome.isExact, "\(outcome.report())")
}

private func replayingReducers(table: inout ReplayTable, tally: Tally) {
    table.onEvery("Tally", as: TallyAction.self) { action in tally.send(action) }
}

private func replayingRedactedValues(path: String) throws {
    let replay = try TraceReplay(
        trace: path, redactedValues: ["LoginStore.logIn.password": .string("test-password")],
        redactedKeys: ["password"])
    _ = replay
}

@Suite struct DocumentationSnippetTests {
    /// The catalogs of the reading modules, each with the least number of articles it has.
    static let catalogs = [("TraceJSON", 2), ("TraceReader", 3), ("TraceQueries", 3)].map { module, articles in
        (packageRoot.appendingPathComponent("Sources/\(module)/Documentation.docc"), articles)
    }

    /// Text without its whitespace, so that layout (line breaks, indentation) does not count.
    private static func compacted(_ text: some StringProtocol) -> String {
        String(text.filter { !$0.isWhitespace })
    }

    @Test func everyCodeBlockOfTheArticlesIsCompiledHere() throws {
        let snippets = Self.compacted(try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8))
        var blocks = 0
        for (catalog, least) in Self.catalogs {
            let articles = try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter {
                $0.hasSuffix(".md")
            }
            #expect(articles.count >= least, "\(catalog.path) has \(articles.count) articles")
            for article in articles {
                let text = try String(contentsOf: catalog.appendingPathComponent(article), encoding: .utf8)
                for block in text.components(separatedBy: "```swift\n").dropFirst() {
                    let code = block.components(separatedBy: "\n```")[0].split(separator: "\n")
                        .filter { !$0.hasPrefix("import ") }.joined()
                    blocks += 1
                    let found = snippets.contains(Self.compacted(code))
                    #expect(
                        found, "a code block of \(article) is not in DocumentationSnippets.swift: \(code.prefix(60))")
                }
            }
        }
        #expect(blocks >= 11)
    }
}
