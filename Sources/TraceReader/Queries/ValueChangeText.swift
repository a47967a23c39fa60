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

    /// Appends the line of the change of the scalar value at `path` from `before` to `after`
    /// (the JSON text of each; nil when there is none), indented, with its newline; false, and
    /// nothing appended, unless each value is plain (printable ASCII without a `\`, so that its
    /// text is its `ValueText` too) and fits its width uncut. The values must be different data.
    func appendScalarChange(
        at path: StateDiffPrinter.LinePath, from before: UnsafeRawBufferPointer?, to after: UnsafeRawBufferPointer?,
        to output: inout [UInt8]
    ) -> Bool {
        let widths = printer.widths(after: path)
        func fits(_ value: UnsafeRawBufferPointer, width: Int) -> Bool {
            value.count <= width && Self.isPlain(value)
        }
        // A plain value's text is its bytes (`ValueText.Rendered.text`, uncut).
        let values: StateDiffPrinter.LineValues<UnsafeRawBufferPointer>
        switch (before, after) {
        case (let old?, let new?):
            guard fits(old, width: widths.changed), fits(new, width: widths.changed) else { return false }
            values = .changed(old, new)
        case (nil, let new?):
            guard fits(new, width: widths.added) else { return false }
            values = .added(new)
        case (let old?, nil):
            guard fits(old, width: widths.removed) else { return false }
            values = .removed(old)
        case (nil, nil):
            return false
        }
        output.append("    ")
        printer.appendLine(path, values, isNotUnicode: false, to: &output)
        output.append(UInt8(ascii: "\n"))
        return true
    }

    /// Appends `number` in decimal, as `String(number)` writes it.
    static func appendDecimal(_ number: Int, to output: inout [UInt8]) {
        guard number >= 0 else {
            output.append(contentsOf: String(number).utf8)
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 24 digits; an Int has 19
        withUnsafeMutableBytes(of: &digits) { buffer in
            var value = number
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
                value /= 10
            } while value > 0
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }

    /// Whether `bytes` are printable ASCII without a `\`: the text of a JSON string body or a
    /// JSON value that reads the same escaped for a terminal and unescaped.
    static func isPlain(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for byte in bytes where byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\\") { return false }
        return true
    }
}
