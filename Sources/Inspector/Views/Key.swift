/// A key the full-screen view understands, or something else that happened while it waited.
enum Key: Equatable, Sendable {
    case character(Character)
    case up, down, left, right, home, end, pageUp, pageDown
    case enter, tab, backspace, escape
    /// Ctrl-C (raw mode turns the signal keys off, so it arrives as a key).
    case interrupt
    /// Ctrl-Z: stop, as in a shell.
    case suspend
    /// The window changed size.
    case resize
    /// The process was stopped and continued (`fg`): the shell drew over the screen.
    case continued
    /// Nothing happened for a fifth of a second: a chance to show work finished meanwhile.
    case tick
}
