import TestSupport
import Testing

@testable import TraceJSON
@testable import TraceQueries
@testable import TraceReader

@Suite struct ValueHistoryTests {
    typealias F = QueryFixtures

    /// A cart whose line 1 changes quantity twice, with catalog events in between that must not
    /// be read as changes, a no-op action, and a line removed.
    static let lines = [
        F.header,
        F.register(1, "CartStore", state: #"{"lines":[{"sku":"A","quantity":1}]}"#),
        F.register(2, "CatalogStore", state: #"{"products":["A","B"]}"#),
        F.transition(
            3, "CartStore", "add", state: #"{"lines":[{"sku":"A","quantity":1},{"sku":"B","quantity":1}]}"#,
            source: "Cart.swift:10"),
        F.transition(4, "CatalogStore", "refresh", state: #"{"products":["A","B","C"]}"#, cause: 3),
        F.transition(
            5, "CartStore", "setQuantity", state: #"{"lines":[{"sku":"A","quantity":1},{"sku":"B","quantity":3}]}"#,
            source: "Cart.swift:20", cause: 4),
        F.transition(
            6, "CartStore", "noop", state: #"{"lines":[{"quantity":1,"sku":"A"},{"quantity":3.0,"sku":"B"}]}"#,
            changed: false),
        F.transition(
            7, "CartStore", "setQuantity", state: #"{"lines":[{"sku":"A","quantity":1},{"sku":"B","quantity":2}]}"#,
            source: "Cart.swift:20"),
        F.transition(
            8, "CartStore", "remove", state: #"{"lines":[{"sku":"A","quantity":1}]}"#, source: "Cart.swift:30"),
    ]

    static func history(_ path: String) throws -> ValueHistory {
        try ValueHistory(trace: F.open(lines), path: StatePath(parsing: path))
    }

    @Test func listsEveryChangeWithItsEventAndValues() throws {
        let changes = try Self.history("CartStore.lines.1.quantity").changes()
        #expect(changes.map(\.step) == [3, 5, 7, 8])
        #expect(changes.map { $0.event.action } == ["add", "setQuantity", "setQuantity", "remove"])
        // The value just before step 7 is as step 6 wrote it: 3.0, equal to 3 (so not a change at 6).
        #expect(changes.map(\.before) == [nil, .number("1"), .number("3.0"), .number("2")])
        #expect(changes.map(\.after) == [.number("1"), .number("3"), .number("2"), nil])
        #expect(changes[1].event.source == "Cart.swift:20")
        #expect(changes[1].event.cause == 4)
        #expect(changes[1].event.state == nil)
        // The dotted form is printed as diff prints it: an index in brackets.
        #expect(changes[1].path.description == "CartStore.lines[1].quantity")
        #expect(
            changes.map(\.changes) == [
                [.added(try StatePath(parsing: "CartStore.lines[1].quantity"), .number("1"))],
                [.changed(try StatePath(parsing: "CartStore.lines[1].quantity"), from: .number("1"), to: .number("3"))],
                [
                    .changed(
                        try StatePath(parsing: "CartStore.lines[1].quantity"), from: .number("3.0"), to: .number("2"))
                ],
                [.removed(try StatePath(parsing: "CartStore.lines[1].quantity"), .number("2"))],
            ])
    }

    @Test func aValueWrittenDifferentlyIsNotAChange() throws {
        // Step 6 reorders members and writes 3 as 3.0: the same value, as diff sees it.
        let steps = try Self.history("CartStore.lines[1]").changes().map(\.step)
        #expect(!steps.contains(6))
        #expect(steps == [3, 5, 7, 8])
    }

    @Test func aContainerListsTheChangesInsideIt() throws {
        let change = try #require(try Self.history("CartStore.lines").changes(after: 4).first)
        #expect(change.step == 5)
        #expect(
            change.changes == [
                .changed(try StatePath(parsing: "CartStore.lines[1].quantity"), from: .number("1"), to: .number("3"))
            ])
    }

    @Test func theWholeStoreStartsWithItsRegisterEvent() throws {
        let changes = try Self.history("CatalogStore").changes()
        #expect(changes.map(\.step) == [2, 4])
        #expect(changes[0].event.type == "register")
        #expect(changes[0].before == nil)
    }

    @Test func afterAndBeforeBoundTheSteps() throws {
        let history = try Self.history("CartStore.lines.1.quantity")
        #expect(history.changes(after: 3).map(\.step) == [5, 7, 8])
        #expect(history.changes(before: 7).map(\.step) == [3, 5])
        #expect(history.changes(after: 3, before: 8).map(\.step) == [5, 7])
        #expect(history.changes(after: 8).isEmpty)
    }

    @Test func lastChangeBeforeAStepAgreesWithTheFullList() throws {
        let history = try Self.history("CartStore.lines.1.quantity")
        let all = history.changes()
        for step in 0...10 {
            #expect(history.lastChange(before: step)?.step == all.last { $0.step < step }?.step, "before \(step)")
            for after in 0...step {
                #expect(
                    history.lastChange(before: step, after: after)?.step
                        == all.last { $0.step < step && $0.step > after }?.step)
            }
        }
        #expect(history.lastChange(before: 7) == all[1])
    }

    @Test func aPathThatLeadsNowhereHasNoChange() throws {
        #expect(try Self.history("CartStore.coupon").changes().isEmpty)
        #expect(try Self.history("CartStore.lines.9").changes().isEmpty)
        #expect(try Self.history("CartStore.lines.0.sku.x").changes().isEmpty)
    }

    @Test func aPathMustStartWithAStoreOfTheTrace() throws {
        let trace = try F.open(Self.lines)
        #expect(throws: ValueHistoryError.self) { try ValueHistory(trace: trace, path: StatePath()) }
        let path = try StatePath(parsing: "Nope.lines")
        do throws(ValueHistoryError) {
            _ = try ValueHistory(trace: trace, path: path)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .unknownStore)
            #expect(error.description.contains("CartStore, CatalogStore"))
        }
    }

    @Test func aRepeatedMemberNameTakesTheLastOneAsTheParserDoes() throws {
        let trace = try F.open([
            F.header,
            F.register(1, "S", state: #"{"a":1,"a":2}"#),
            F.transition(2, "S", "x", state: #"{"a":2,"b":0}"#),
            F.transition(3, "S", "y", state: #"{"a":2,"a":5}"#),
        ])
        let changes = try ValueHistory(trace: trace, path: StatePath(parsing: "S.a")).changes()
        #expect(changes.map(\.step) == [1, 3])
        #expect(changes.map(\.after) == [.number("2"), .number("5")])
    }

    @Test func namesWithEscapesAndOddCharactersAreFound() throws {
        let trace = try F.open([
            F.header,
            F.register(1, "S", state: #"{"a\u0062":{"x y":1}}"#),
            F.transition(2, "S", "x", state: #"{"ab":{"x y":2}}"#),
        ])
        let changes = try ValueHistory(trace: trace, path: StatePath(parsing: #"S.ab["x y"]"#)).changes()
        #expect(changes.map(\.after) == [.number("1"), .number("2")])
    }

    /// The raw walk agrees with decoding every state in full and resolving the path, on the
    /// trace above and on one recorded through the recorder.
    @Test(arguments: [
        (
            "written",
            [
                "CartStore", "CartStore.lines", "CartStore.lines.0", "CartStore.lines.1.quantity",
                "CartStore.lines[1].sku",
                "CatalogStore.products.2", "CartStore.nothing",
            ]
        ),
        ("recorded", ["PingStore", "PongStore", "PingStore.missing"]),
    ])
    func agreesWithDecodingEveryState(traceName: String, paths: [String]) throws {
        let trace =
            traceName == "written" ? try F.open(Self.lines) : try TraceFile(bytes: try F.recordedLoop(rounds: 6))
        for pathText in paths {
            let path = try StatePath(parsing: pathText)
            var expected: [Int] = []
            var previous: JSONValue?
            for step in 1...trace.lastStep {
                let value = trace.appState(atStep: step)[pathText.split(separator: ".")[0].description].flatMap {
                    StatePath(Array(path.components.dropFirst())).resolve(in: $0)
                }
                let same =
                    switch (previous, value) {
                    case (nil, nil): true
                    case (let a?, let b?): a.isEquivalent(to: b)
                    default: false
                    }
                if !same { expected.append(step) }
                previous = value
            }
            #expect(try ValueHistory(trace: trace, path: path).changes().map(\.step) == expected, "\(pathText)")
        }
    }
}
