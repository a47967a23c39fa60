@_spi(RewindInternals) internal import RewindSupport
internal import ToolSupport

/// The text `inspector when` prints for a change, written as bytes: the one definition of it,
/// for a `ValueChange` (`append(_:to:)`) and for the changes `ValueHistory.writeChanges` writes
/// straight from the bytes of their events' lines.
///
///     step 12  CartStore.add  (Cart.swift:40, cause 11)
///         CartStore.total: 1.99 → 3.98
///
/// A heading (the step; the store in cyan, then `.action` in bold for a transition or
/// `(type)` for another event; the source and the cause, dimmed), then each change as
/// `StateDiffPrinter.line(_:)` prints it, indented four spaces. Every text from the trace is
/// made safe for a terminal (`TTY.safe`, `ValueText`).
package struct ValueChangeText: Sendable {
    /// The printer of the change lines.
    let printer: StateDiffPrinter

    /// Lines for a terminal `width` columns wide, with ANSI colours when `colors`.
    package init(width: Int, colors: Bool) {
        printer = StateDiffPrinter(width: width, terminalSafe: true, colors: colors)
    }

    /// Appends the lines of `change`, each ending with a newline.
    package func append(_ change: ValueChange, to output: inout [UInt8]) {
        let event = change.event
        appendHeading(
            step: change.step, isTransition: event.type == "transition", hasSource: event.source != nil,
            cause: event.cause, to: &output
        ) { text, output in
            switch text {
            case .store: output.append("", TerminalText.safe(event.store ?? "?"))
            case .action: output.append("", TerminalText.safe(event.action ?? "?"))
            case .type: output.append("", TerminalText.safe(event.type))
            case .source: output.append("", TerminalText.safe(event.source ?? ""))
            }
        }
        for line in change.changes {
            output.append("    ", printer.line(line))
            output.append(UInt8(ascii: "\n"))
        }
    }

    /// A text of the event that the heading holds.
    enum HeadingText {
        case store, action, type, source
    }

    /// Appends the heading line and its newline; `text` appends each text of the event, safe to
    /// print (`?` for a missing store or action).
    func appendHeading(
        step: Int, isTransition: Bool, hasSource: Bool, cause: Int?, to output: inout [UInt8],
        _ text: (HeadingText, inout [UInt8]) -> Void
    ) {
        appendHeading(step: step, hasSource: hasSource, cause: cause, to: &output) { output in
            appendNames(isTransition: isTransition, hasSource: hasSource, hasCause: cause != nil, to: &output, text)
        }
    }

    /// Appends the heading line and its newline, `names` appending what `appendNames` appends
    /// for the event (written once for many events of the same names by `ScalarChangeWriter`).
    func appendHeading(
        step: Int, hasSource: Bool, cause: Int?, to output: inout [UInt8], names: (inout [UInt8]) -> Void
    ) {
        output.append("step ")
        Self.appendDecimal(step, to: &output)
        names(&output)
        if hasSource || cause != nil {
            if let cause {
                output.append(hasSource ? ", cause " : "cause ")
                Self.appendDecimal(cause, to: &output)
            }
            output.append(")")
            ANSIPainter(enabled: printer.colors).close(to: &output)
        }
        output.append(UInt8(ascii: "\n"))
    }

    /// Appends the part of the heading between the step and the cause, which depends on the
    /// event's texts only: the store in cyan, then `.action` in bold for a transition or
    /// `(type)` for another event; then, when the event has a source or a cause (`hasCause`),
    /// the dimmed style, `(` and the source, left open for the cause (`appendHeading` closes it).
    func appendNames(
        isTransition: Bool, hasSource: Bool, hasCause: Bool, to output: inout [UInt8],
        _ text: (HeadingText, inout [UInt8]) -> Void
    ) {
        let painter = ANSIPainter(enabled: printer.colors)
        output.append("  ")
        painter.paint(ANSIPainter.cyan, to: &output) { text(.store, &$0) }
        if isTransition {
            output.append(".")
            painter.paint(ANSIPainter.bold, to: &output) { text(.action, &$0) }
        } else {
            output.append(" (")
            text(.type, &output)
            output.append(")")
        }
        if hasSource || hasCause {
            output.append("  ")
            painter.open(ANSIPainter.dim, to: &output)
            output.append("(")
            if hasSource { text(.source, &output) }
        }
    }

    /// The lines of the changes of a scalar value at one path, as `appendScalarChange` writes
    /// them: the widths of the values and the bytes around them (the indent, the path, colours,
    /// the arrow, `added `/`removed `, the newline), worked out once for the many changes of a
    /// value. The bytes are cut from the lines `StateDiffPrinter.appendLine` writes with stand-in
    /// values (the bytes 1 and 2, which nothing else on such a line holds), so that there is
    /// still one writer of a line.
    struct ScalarLine: Sendable {
        let widths: StateDiffPrinter.Widths
        /// Before the old value, between the two, after the new one.
        let changed: (before: [UInt8], between: [UInt8], after: [UInt8])
        /// Before and after the value added.
        let added: (before: [UInt8], after: [UInt8])
        /// Before and after the value removed.
        let removed: (before: [UInt8], after: [UInt8])

        /// The lines at `path` as `text` writes them; nil when a stand-in is not found once
        /// (it cannot be, as `appendLine` writes lines).
        init?(at path: StateDiffPrinter.LinePath, as text: ValueChangeText) {
            let first: UInt8 = 1
            let second: UInt8 = 2
            func pieces(_ values: StateDiffPrinter.LineValues<[UInt8]>) -> [[UInt8]] {
                var line: [UInt8] = []
                line.append("    ")
                text.printer.appendLine(path, values, isNotUnicode: false, to: &line)
                line.append(UInt8(ascii: "\n"))
                return line.split(separator: first, omittingEmptySubsequences: false).flatMap {
                    $0.split(separator: second, omittingEmptySubsequences: false)
                }.map { Array($0) }
            }
            let changed = pieces(.changed([first], [second]))
            let added = pieces(.added([first]))
            let removed = pieces(.removed([first]))
            guard changed.count == 3, added.count == 2, removed.count == 2 else { return nil }
            widths = text.printer.widths(after: path)
            self.changed = (changed[0], changed[1], changed[2])
            self.added = (added[0], added[1])
            self.removed = (removed[0], removed[1])
        }
    }

    /// Appends the line of the change of a scalar value at the path of `line` from `before` to
    /// `after` (the JSON text of each; nil when there is none), indented, with its newline:
    /// what `appendLine` of `StateDiffPrinter` writes. False, and nothing appended, unless each
    /// value is plain (printable ASCII without a `\`, so that its text is its `ValueText` too)
    /// and fits its width uncut. The values must be different data.
    func appendScalarChange(
        _ line: ScalarLine, from before: ByteView?, to after: ByteView?,
        to output: inout [UInt8]
    ) -> Bool {
        func fits(_ value: ByteView, width: Int) -> Bool {
            value.count <= width && Self.isPlain(value)
        }
        // A plain value's text is its bytes (`ValueText.Rendered.text`, uncut).
        switch (before, after) {
        case (let old?, let new?):
            guard fits(old, width: line.widths.changed), fits(new, width: line.widths.changed) else { return false }
            output.append(contentsOf: line.changed.before)
            old.append(to: &output)
            output.append(contentsOf: line.changed.between)
            new.append(to: &output)
            output.append(contentsOf: line.changed.after)
        case (nil, let new?):
            guard fits(new, width: line.widths.added) else { return false }
            output.append(contentsOf: line.added.before)
            new.append(to: &output)
            output.append(contentsOf: line.added.after)
        case (let old?, nil):
            guard fits(old, width: line.widths.removed) else { return false }
            output.append(contentsOf: line.removed.before)
            old.append(to: &output)
            output.append(contentsOf: line.removed.after)
        case (nil, nil):
            return false
        }
        return true
    }

    /// Appends `number` in decimal, as `String(number)` writes it.
    static func appendDecimal(_ number: Int, to output: inout [UInt8]) {
        guard number >= 0 else {
            output.append(contentsOf: String(number).utf8)
            return
        }
        // The digits from the last, then turned around in place.
        let start = output.count
        var value = number
        repeat {
            output.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
            value /= 10
        } while value > 0
        output[start...].reverse()
    }

    /// Whether `bytes` are printable ASCII without a `\`: the text of a JSON string body or a
    /// JSON value that reads the same escaped for a terminal and unescaped.
    static func isPlain(_ bytes: ByteView) -> Bool {
        for index in 0..<bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\\") { return false }
        }
        return true
    }
}
