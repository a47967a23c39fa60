import Recorder

/// A scripted run of the shop: a configuration and the commands a shopper types, run the same
/// way as the interactive mode runs them, so recording it twice gives the same events.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct Scenario: Sendable {
    /// The name to pass to `sample-app record`, and of its trace file.
    var name: String
    /// One line for `sample-app scenarios`.
    var summary: String
    /// The fake services' seed and behaviour, and the stores' policy.
    var configuration: ShopConfiguration
    /// What the shopper types after the app opens.
    var commands: [ShopCommand]
    /// Whether the run breaks a state machine on purpose, so that its trace is a known-bad
    /// example for `inspector validate` (kept in `traces/invalid/`).
    var breaksAMachine = false
    /// Whether the run breaks one of the machines' rules over time on purpose (a deadline, a case
    /// a run must not end in), which also makes its trace a known-bad example.
    var breaksARule = false

    /// Whether `inspector validate` must flag the run's trace.
    var isKnownBad: Bool { breaksAMachine || breaksARule }

    /// Where the repository keeps this scenario's trace, relative to the package's root.
    var tracePath: String {
        isKnownBad ? "traces/invalid/\(name).jsonl" : "traces/\(name).jsonl"
    }

    /// Runs the scenario on a new shop.
    /// - Parameters:
    ///   - recorder: where the stores record; `nil` records nothing.
    ///   - policy: replaces the configuration's policy (tests run the crash scenario with
    ///     `.record` so that it does not stop the test process).
    ///   - draw: called with each screen the app draws: once after it opens, then after each
    ///     command.
    /// - Returns: the refusals of commands the shop could not do, one per command.
    @discardableResult
    func run(
        recorder: TraceRecorder?,
        policy: IllegalTransitionPolicy? = nil,
        renderer: ScreenRenderer = ScreenRenderer(),
        draw: (String) -> Void = { _ in }
    ) -> [String?] {
        var configuration = configuration
        if let policy { configuration.policy = policy }
        let shop = Shop(configuration: configuration, recorder: recorder)
        shop.launch()
        draw(renderer.render(shop.snapshot))
        return commands.map { command in
            let refusal = shop.run(command)
            draw(renderer.render(shop.snapshot))
            return refusal
        }
    }

    /// The scenario called `name`, if there is one.
    static func named(_ name: String) -> Scenario? {
        all.first { $0.name == name }
    }
}
