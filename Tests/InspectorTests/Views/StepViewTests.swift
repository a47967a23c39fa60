import Foundation
import Testing
import TraceReader

@testable import Inspector

/// Every key of the full-screen step view, through its pure update (no terminal): the state it
/// leads to and the effects it asks for. The trace is `RecordedTrace`'s: 7 steps, step 4 illegal.
@Suite struct StepViewTests {
    /// A view of the recorded trace at `step`, validated unless told otherwise, drawn once on a
    /// 100 × 30 screen (the page keys use the height).
    static func view(
        _ trace: RecordedTrace, at step: Int = 0, validated: Bool = true
    ) throws -> StepView {
        let file = try TraceFile(path: trace.path)
        var session = StepSession(trace: file, problems: [:])
        _ = session.go(toStep: step)
        var view = StepView(session: session, style: Style(enabled: false))
        if validated { _ = view.problemsFound(try TraceOpening.problemMarks(of: file)) }
        _ = view.render(columns: 100, rows: 30)
        return view
    }

    /// Sends `keys` one by one; returns the effects of the last.
    @discardableResult
    static func press(_ view: inout StepView, _ keys: Key...) -> StepView.Effects {
        var effects: StepView.Effects = []
        for key in keys { (view, effects) = StepView.update(view, with: key) }
        return effects
    }

    static func type(_ view: inout StepView, _ text: String) {
        for character in text { press(&view, .character(character)) }
    }

    @Test(arguments: [Key.right, .character("l"), .character("n")])
    func nextStepKeys(key: Key) throws {
        let trace = try RecordedTrace()
        var view = try Self.view(trace, at: 2)
        #expect(Self.press(&view, key) == .redraw)
        #expect(view.session.step == 3)
        var last = try Self.view(trace, at: 7)
        Self.press(&last, key)
        #expect(last.session.step == 7)
        #expect(last.screen.message == "this is the last step")
    }

    @Test(arguments: [Key.left, .character("h"), .character("p")])
    func previousStepKeys(key: Key) throws {
        let trace = try RecordedTrace()
        var view = try Self.view(trace, at: 2)
        #expect(Self.press(&view, key) == .redraw)
        #expect(view.session.step == 1)
        var first = try Self.view(trace, at: 0)
        Self.press(&first, key)
        #expect(first.session.step == 0)
        #expect(first.screen.message == "this is step 0")
    }

    @Test(arguments: [Key.home, .character("g")])
    func firstStepKeys(key: Key) throws {
        var view = try Self.view(RecordedTrace(), at: 5)
        Self.press(&view, key)
        #expect(view.session.step == 0)
    }

    @Test(arguments: [Key.end, .character("G")])
    func lastStepKeys(key: Key) throws {
        var view = try Self.view(RecordedTrace(), at: 1)
        Self.press(&view, key)
        #expect(view.session.step == 7)
    }

    @Test func bracketsGoToTheStepsWithProblems() throws {
        let trace = try RecordedTrace()
        var view = try Self.view(trace, at: 0)
        Self.press(&view, .character("]"))
        #expect(view.session.step == 4)
        Self.press(&view, .character("]"))
        #expect(view.session.step == 4)
        #expect(view.screen.message == "no problem after this step")
        Self.press(&view, .end, .character("["))
        #expect(view.session.step == 4)
        Self.press(&view, .character("["))
        #expect(view.screen.message == "no problem before this step")
    }

    @Test func bracketsBeforeValidationSayItIsStillRunning() throws {
        var view = try Self.view(RecordedTrace(), validated: false)
        Self.press(&view, .character("]"))
        #expect(view.session.step == 0)
        #expect(view.screen.message == "still validating; problems are marked when it is done")
        #expect(view.problemsFound([:]) == .redraw)
        #expect(view.validated && !view.screen.validating)
        Self.press(&view, .character("]"))
        #expect(view.screen.message == "no problems in this trace")
    }

    @Test func tabSwitchesThePane() throws {
        var view = try Self.view(RecordedTrace(), at: 6)
        #expect(view.screen.pane == .diff)
        Self.press(&view, .tab)
        #expect(view.screen.pane == .state)
        Self.press(&view, .tab)
        #expect(view.screen.pane == .diff)
    }

    @Test func scrollKeysMoveThePaneWithinItsLength() throws {
        var view = try Self.view(RecordedTrace(), at: 7)
        Self.press(&view, .tab)
        _ = view.render(columns: 100, rows: 30)
        let length = view.paneLength
        #expect(length > 3)
        Self.press(&view, .down, .character("j"))
        #expect(view.screen.scroll == 2)
        Self.press(&view, .up)
        #expect(view.screen.scroll == 1)
        Self.press(&view, .character("k"), .character("k"))
        #expect(view.screen.scroll == 0)
        Self.press(&view, .pageDown)
        #expect(view.screen.scroll == min(15, length - 1))
        Self.press(&view, .pageDown, .pageDown, .pageDown)
        #expect(view.screen.scroll == length - 1)
        Self.press(&view, .pageUp)
        #expect(view.screen.scroll == max(0, length - 1 - 15))
    }

    @Test func vPicksTheChangedValuesAndWJumpsToWhoSetThem() throws {
        var view = try Self.view(RecordedTrace(), at: 5)
        Self.press(&view, .character("v"))
        #expect(view.screen.message?.hasPrefix("value CatalogStore") == true)
        Self.press(&view, .character("w"))
        #expect(view.session.step == 3)
        #expect(
            view.screen.message == "CatalogStore.loading was last changed before step 5 here, by CatalogStore.toLoading"
        )
        var end = try Self.view(RecordedTrace(), at: 7)
        Self.press(&end, .character("v"))
        #expect(end.screen.message == "value CartStore.items[1] (w: jump to the step that last changed it)")
        Self.press(&end, .character("w"))
        #expect(end.session.step == 7)
        #expect(end.screen.message == "no step before 7 changed CartStore.items[1]")
        var start = try Self.view(RecordedTrace(), at: 0)
        Self.press(&start, .character("v"))
        #expect(start.screen.message == "this step changed no value")
        Self.press(&start, .character("w"))
        #expect(start.screen.message == "this step changed no value; press w on a step whose diff shows one")
    }

    @Test func digitsThenEnterJump() throws {
        var view = try Self.view(RecordedTrace())
        Self.press(&view, .character("5"))
        #expect(view.typed == "5" && view.screen.message == "jump to step 5")
        Self.press(&view, .character("x"))
        #expect(view.typed == "5")
        Self.press(&view, .enter)
        #expect(view.session.step == 5 && view.typed == nil && view.screen.message == nil)
        Self.type(&view, "99")
        Self.press(&view, .enter)
        #expect(view.session.step == 5)
        #expect(view.screen.message == "no step 99: steps go from 0 to 7")
    }

    @Test func slashSearchesAndAnEmptySearchRepeatsIt() throws {
        var view = try Self.view(RecordedTrace())
        Self.press(&view, .character("/"))
        #expect(view.typed == "/" && view.screen.message == "find: ")
        Self.type(&view, "toLoading")
        #expect(view.screen.message == "find: toLoading")
        Self.press(&view, .enter)
        #expect(view.session.step == 3)
        Self.press(&view, .character("/"), .enter)
        #expect(view.session.step == 4)
        Self.press(&view, .character("/"))
        Self.type(&view, "nothing")
        Self.press(&view, .enter)
        #expect(view.screen.message == "no store, action, argument or new state value matches \"nothing\"")
    }

    @Test func backspaceEscapeAndCtrlCWhileTyping() throws {
        var view = try Self.view(RecordedTrace())
        Self.type(&view, "12")
        Self.press(&view, .backspace)
        #expect(view.typed == "1" && view.screen.message == "jump to step 1")
        Self.press(&view, .backspace)
        #expect(view.typed == nil && view.screen.message == nil)
        Self.press(&view, .character("/"))
        Self.type(&view, "a\u{1B}")
        #expect(view.screen.message == "find: a\\u{1b}")
        #expect(Self.press(&view, .escape) == .redraw)
        #expect(view.typed == nil)
        Self.type(&view, "3")
        // Ctrl-C while typing cancels the typing; it does not quit.
        #expect(Self.press(&view, .interrupt) == .redraw)
        #expect(view.typed == nil && view.session.step == 0)
    }

    @Test(arguments: [Key.character("q"), .interrupt])
    func quitKeys(key: Key) throws {
        var view = try Self.view(RecordedTrace())
        #expect(Self.press(&view, key) == .quit)
    }

    @Test func ctrlZStopsAndAContinueOrAResizeRedraws() throws {
        var view = try Self.view(RecordedTrace(), at: 3)
        #expect(Self.press(&view, .suspend) == [.suspend, .redraw])
        #expect(Self.press(&view, .continued) == .redraw)
        #expect(Self.press(&view, .resize) == .redraw)
        #expect(view.session.step == 3)
    }

    @Test func aTickChangesNothingAndDrawsNothing() throws {
        var view = try Self.view(RecordedTrace(), at: 3)
        let message = view.screen.message
        #expect(Self.press(&view, .tick) == [])
        #expect(view.session.step == 3 && view.screen.message == message)
    }

    @Test func otherKeysOnlyClearTheMessage() throws {
        var view = try Self.view(RecordedTrace(), at: 7)
        Self.press(&view, .right)
        #expect(view.screen.message != nil)
        for key in [Key.character("z"), .enter, .escape, .backspace, .character("٣")] {
            Self.press(&view, .right)
            #expect(Self.press(&view, key) == .redraw)
            #expect(view.session.step == 7 && view.screen.message == nil && view.typed == nil)
        }
    }
}

@Suite struct KeyDecoderTests {
    static func keys(_ bytes: [UInt8]) -> [Key] {
        var rest = bytes[...]
        var keys: [Key] = []
        while !rest.isEmpty {
            guard case .key(let key, let length) = KeyDecoder.decode(rest, complete: true) else { break }
            keys.append(key)
            rest = rest.dropFirst(length)
        }
        return keys
    }

    @Test func controlBytes() {
        #expect(
            Self.keys([3, 9, 10, 13, 8, 127, 26]) == [
                .interrupt, .tab, .enter, .enter, .backspace, .backspace, .suspend,
            ])
    }

    @Test func arrowsAndThePageKeys() {
        let csi: [UInt8] = [27, 91]
        let sequences: [([UInt8], Key)] = [
            (csi + [65], .up), (csi + [66], .down), (csi + [67], .right), (csi + [68], .left),
            (csi + [72], .home), (csi + [70], .end), ([27, 79, 65], .up), ([27, 79, 72], .home),
            (csi + Array("1~".utf8), .home), (csi + Array("7~".utf8), .home), (csi + Array("4~".utf8), .end),
            (csi + Array("8~".utf8), .end), (csi + Array("5~".utf8), .pageUp), (csi + Array("6~".utf8), .pageDown),
            (csi + Array("2~".utf8), .escape),
        ]
        for (bytes, key) in sequences { #expect(Self.keys(bytes) == [key], "\(bytes)") }
        #expect(Self.keys(csi + [65] + csi + [66] + Array("q".utf8)) == [.up, .down, .character("q")])
    }

    @Test func anEscapeAloneWaitsForMoreUnlessNothingCame() {
        #expect(KeyDecoder.decode([27][...]) == .incomplete)
        #expect(KeyDecoder.decode([27, 91][...]) == .incomplete)
        #expect(KeyDecoder.decode([27][...], complete: true) == .key(.escape, length: 1))
        #expect(KeyDecoder.decode([27, 91, 49][...], complete: true) == .key(.escape, length: 3))
        #expect(KeyDecoder.decode([27, 120][...]) == .key(.escape, length: 1))
        let long = [27, 91] + [UInt8](repeating: 49, count: 40)
        #expect(KeyDecoder.decode(long[...]) == .key(.escape, length: KeyDecoder.longestSequence))
    }

    @Test func utf8Characters() {
        #expect(Self.keys(Array("é€😀a".utf8)) == [.character("é"), .character("€"), .character("😀"), .character("a")])
        #expect(KeyDecoder.decode(Array("€".utf8).prefix(2)) == .incomplete)
        #expect(KeyDecoder.decode([0xFF][...]) == .key(.escape, length: 1))
        #expect(KeyDecoder.decode([0xC3, 0x41][...]) == .key(.escape, length: 2))
    }
}
