import TestSupport
import Testing
import ToolSupport

@testable import TraceJSON
@testable import TraceQueries

@Suite struct StateDiffPrinterTests {
    let json = DiffTesting.json
    let printer = StateDiffPrinter()

    func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    func cart(_ count: Int, _ edit: (inout [JSONValue]) -> Void = { _ in }) -> JSONValue {
        var lines: [JSONValue] = (0..<count).map { .object(["id": .number(String($0))]) }
        edit(&lines)
        return .object(["CartStore": .object(["lines": .array(lines), "total": .number("5")])])
    }

    @Test func foldsUnchangedContextAroundAnInsertion() {
        let diff = StateDiff(from: cart(100), to: cart(100) { $0.insert(.object(["id": .number("1000")]), at: 50) })
        #expect(
            lines(printer.text(diff)) == [
                "  CartStore: {",
                "    lines: [",
                "      … (50 unchanged)",
                "+     [50]: {\"id\": 1000}",
                "      … (50 unchanged)",
                "    ]",
                "    total: 5",
                "  }",
                "",
            ])
    }

    @Test func opensOnlyTheChangedBranchAndShowsSingleContextInFull() throws {
        let before = try json(
            #"{"CatalogStore": {"loaded": {"_0": [{"title": "A", "price": 1}, {"title": "B", "price": 2}, {"title": "C", "price": 3}]}}, "CartStore": {"lines": []}, "UserStore": {"name": "Ann"}}"#
        )
        let after = try json(
            #"{"CatalogStore": {"loaded": {"_0": [{"title": "A", "price": 1}, {"title": "Bee", "price": 2}, {"title": "C", "price": 3}]}}, "CartStore": {"lines": []}, "UserStore": {"name": "Ann"}}"#
        )
        #expect(
            lines(printer.text(StateDiff(from: before, to: after))) == [
                "  CatalogStore: {",
                "    loaded: {",
                "      _0: [",
                "        [0]: {\"title\": \"A\", \"price\": 1}",
                "        [1]: {",
                "-         title: \"B\"",
                "+         title: \"Bee\"",
                "          price: 2",
                "        }",
                "        [2]: {\"title\": \"C\", \"price\": 3}",
                "      ]",
                "    }",
                "  }",
                "  … (2 unchanged)",
                "",
            ])
    }

    @Test func showsAnEnumCaseSwitch() throws {
        let diff = StateDiff(
            from: try json(#"{"CatalogStore": {"loading": {}}}"#),
            to: try json(#"{"CatalogStore": {"loaded": {"_0": ["a", "b"]}}}"#))
        #expect(
            lines(printer.text(diff)) == [
                "  CatalogStore: {",
                "-   loading: {}",
                "+   loaded: {\"_0\": [\"a\", \"b\"]}",
                "  }",
                "",
            ])
    }

    @Test func opensAValueTooWideForOneLine() throws {
        let before = try json(#"{"lines": []}"#)
        let after = try json(
            #"{"lines": [{"title": "a fairly long product title here", "tags": ["x", "y"], "price": 12}]}"#)
        #expect(
            lines(StateDiffPrinter(width: 40).text(StateDiff(from: before, to: after))) == [
                "  lines: [",
                "+   [0]: {",
                "+     title: \"a fairly long product title here\"",
                "+     tags: [\"x\", \"y\"]",
                "+     price: 12",
                "+   }",
                "  ]",
                "",
            ])
    }

    @Test func removedElementsCarryTheirOldIndexAndReplacedOnesBoth() throws {
        let diff = StateDiff(from: try json(#"[1, 2, 3, "x", 4, 5]"#), to: try json(#"[0, 1, 2, 3, {"y": 1}, 4, 5]"#))
        #expect(
            lines(printer.text(diff)) == [
                "  [",
                "+   [0]: 0",
                "    … (3 unchanged)",
                "-   [3]: \"x\"",
                "+   [4]: {\"y\": 1}",
                "    … (2 unchanged)",
                "  ]",
                "",
            ])
    }

    @Test func printsATopLevelChangeAndNothingForNoChange() throws {
        #expect(lines(printer.text(StateDiff(from: .number("1"), to: .string("1")))) == ["- 1", "+ \"1\"", ""])
        #expect(printer.text(StateDiff(from: cart(3), to: cart(3))) == "")
        #expect(printer.paths(StateDiff(from: cart(3), to: cart(3))) == "")
    }

    @Test func quotesNamesThatAreNotPlainWords() throws {
        let diff = StateDiff(
            from: try json(#"{"odd key": {"2fa": true}}"#), to: try json(#"{"odd key": {"2fa": false}}"#))
        #expect(
            lines(printer.text(diff)) == [
                "  [\"odd key\"]: {",
                "-   [\"2fa\"]: true",
                "+   [\"2fa\"]: false",
                "  }",
                "",
            ])
        #expect(printer.paths(diff) == "[\"odd key\"][\"2fa\"]: true → false\n")
    }

    @Test func printsOneLinePerChangeInThePathsForm() throws {
        let before = try json(
            #"{"CartStore": {"lines": [{"sku": "A", "quantity": 1}, {"sku": "B", "quantity": 1}, {"sku": "C", "quantity": 1}]}, "CatalogStore": {"loading": {}}}"#
        )
        let after = try json(
            #"{"CartStore": {"lines": [{"sku": "A", "quantity": 1}, {"sku": "C", "quantity": 2}, {"sku": "D", "quantity": 1}]}, "CatalogStore": {"loaded": {"_0": []}}}"#
        )
        #expect(
            lines(printer.paths(StateDiff(from: before, to: after))) == [
                "CartStore.lines[1]: removed {\"sku\": \"B\", \"quantity\": 1}",
                "CartStore.lines[1].quantity: 1 → 2",
                "CartStore.lines[2]: added {\"sku\": \"D\", \"quantity\": 1}",
                "CatalogStore.loading: removed {}",
                "CatalogStore.loaded: added {\"_0\": []}",
                "",
            ])
    }

    @Test func cutsLongValuesInThePathsFormToTheWidth() {
        let long = String(repeating: "abcdefghij", count: 100)
        let line = StateDiffPrinter(width: 60).line(
            .changed(StatePath([.key("note")]), from: .string(long), to: .string("short")))
        #expect(line.count <= 60)
        #expect(line.hasPrefix("note: \"abcdefghij"))
        #expect(line.contains("… → \"short\""))
    }

    @Test func escapesEveryControlCharacterFromTheStates() throws {
        let hostile = "\u{1B}[2J\u{1B}]0;pwned\u{7}\u{9B}31m\u{85}\u{2028}\u{7F}\r"
        let before = JSONValue.object([
            hostile: .string(hostile), "list": .array([.string(hostile), .string(hostile)]),
        ])
        let after = JSONValue.object([
            hostile: .string("ok"), "list": .array([.string(hostile), .string("x"), .string(hostile)]),
            "new": .string(hostile),
        ])
        let diff = StateDiff(from: before, to: after)
        for output in [printer.text(diff), printer.paths(diff), StateDiffPrinter(width: 20).text(diff)] {
            let raw = output.unicodeScalars.filter {
                ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028
            }
            #expect(raw.isEmpty, "\(output.debugDescription)")
            #expect(output.contains(#"\u001b[2J\u001b]0;pwned\u0007\u009b31m\u0085\u2028\u007f\r"#))
        }
    }

    @Test func coloursRemovalsRedAdditionsGreenAndFoldsDim() {
        let diff = StateDiff(from: cart(100), to: cart(100) { $0[50] = .string("x") })
        let coloured = StateDiffPrinter(colors: true).text(diff)
        let red = "\u{1B}[31m"
        let green = "\u{1B}[32m"
        let dim = "\u{1B}[2m"
        let reset = "\u{1B}[0m"
        #expect(lines(coloured).contains(red + "-     [50]: {\"id\": 50}" + reset))
        #expect(lines(coloured).contains(green + "+     [50]: \"x\"" + reset))
        #expect(lines(coloured).contains("      " + dim + "… (50 unchanged)" + reset))
        // Without the escapes, the coloured text is the plain text.
        let stripped = coloured.replacing(red, with: "").replacing(green, with: "").replacing(dim, with: "").replacing(
            reset, with: "")
        #expect(stripped == printer.text(diff))
        let line = StateDiffPrinter(colors: true).line(
            .changed(StatePath([.key("a")]), from: .number("1"), to: .number("2")))
        #expect(line == "a: " + red + "1" + reset + " → " + green + "2" + reset)
    }
}

@Suite struct ValueTextTests {
    @Test func printsShortJSONWithSpaces() throws {
        let value = try DiffTesting.json(#"{"a":[1,2.50,1e400,-0],"b":{"c":null,"d":true},"e":"x\ny"}"#)
        #expect(ValueText.line(value) == #"{"a": [1, 2.50, 1e400, -0], "b": {"c": null, "d": true}, "e": "x\ny"}"#)
        #expect(ValueText.line(.array([])) == "[]")
        #expect(ValueText.line(.object([:])) == "{}")
    }

    @Test(arguments: [1, 2, 5, 10, 17, 40])
    func cutsAtTheWidthWithAnEllipsis(width: Int) throws {
        let value = try DiffTesting.json(#"{"title": "日本語のタイトル 👩‍👩‍👧", "tags": ["a", "b", "c"], "n": 12345}"#)
        let full = ValueText.line(value)
        let line = ValueText.line(value, maxWidth: width)
        // In terminal columns: a wide character that would straddle the edge goes whole.
        #expect((width - 1...width).contains(DisplayWidth.of(line)), "\(line)")
        #expect(line.hasSuffix("…"))
        #expect(full.hasPrefix(line.dropLast()))
    }

    @Test func measuresEmojiAndCJKInColumns() {
        // ✨ and 漢 take two columns each: 9 columns hold the quote, three of them and the `…`.
        #expect(ValueText.line(.string("✨✨✨✨✨✨"), maxWidth: 9) == "\"✨✨✨…")
        #expect(ValueText.line(.string("漢字"), maxWidth: 6) == "\"漢字\"")
        #expect(ValueText.line(.string("漢字"), maxWidth: 5) == "\"漢…")
    }

    @Test func printsDiffLinesWithinTheWidthInColumns() throws {
        let before = try DiffTesting.json(#"{"🚀✨": "✨✨✨✨✨✨✨✨✨✨✨✨✨✨✨✨✨✨✨✨✨✨✨✨✨✨✨✨✨✨✨"}"#)
        let after = try DiffTesting.json(#"{"🚀✨": "🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀"}"#)
        let diff = StateDiff(from: before, to: after)
        // The paths form cuts values to the width (the tree form prints a changed string whole).
        let text = StateDiffPrinter(width: 60).paths(diff)
        #expect(text.contains("…"))
        for line in text.split(separator: "\n") {
            #expect(DisplayWidth.of(line) <= 60, "\(line)")
        }
    }

    @Test func leavesAValueThatFitsWhole() {
        #expect(ValueText.line(.string("abc"), maxWidth: 5) == "\"abc\"")
        #expect(ValueText.line(.number("12345"), maxWidth: 5) == "12345")
        #expect(ValueText.line(.number("123456"), maxWidth: 5) == "1234…")
    }

    @Test func cutsAHugeValueWithoutPrintingIt() {
        let huge = JSONValue.array(Array(repeating: .string(String(repeating: "x", count: 10_000)), count: 1_000))
        #expect(ValueText.line(huge, maxWidth: 30) == "[\"" + String(repeating: "x", count: 27) + "…")
    }

    @Test func escapesTerminalControlsUnlessAskedNotTo() {
        let value = JSONValue.string("\u{1B}[31m\u{9B}\u{7F}")
        #expect(ValueText.line(value) == #""\u001b[31m\u009b\u007f""#)
        #expect(ValueText.line(value, terminalSafe: false) == "\"\\u001b[31m\u{9B}\u{7F}\"")
    }

    @Test func showsANumberTextThatIsNotANumberAsAString() {
        #expect(ValueText.line(.number("\u{1B}[2J")) == #""\u001b[2J""#)
    }
}
