/// What a store does when an action moves its state machine along a transition that the machine
/// does not allow. Either way the trace holds the illegal event.
public enum IllegalTransitionPolicy: Sendable {
    /// Record the event and go on. The default: a recorded run shows the problem, and
    /// `inspector validate` fails the build on it.
    case record
    /// Record the event, make sure its line has reached the operating system and the disk, then
    /// stop the process, as the state-container talk's `fatalError("Wrong state transition")`
    /// does. For debug builds that should stop at the first wrong step.
    case trap
}
