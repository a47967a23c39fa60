import TraceQueries

/// What `inspector coverage` found and decided: the coverage, the threshold, and whether it is
/// met. Every output format writes one.
struct CoverageOutcome {
    var coverage: TraceCoverage
    /// `--min`, a percentage; nil when not given.
    var minimum: Double?

    /// Whether the build passes: no threshold, or an overall coverage at least the threshold.
    /// With a threshold, runs whose machines declare no transition fail: there is nothing to
    /// measure, most often because the traces are not the ones meant.
    var passes: Bool {
        guard let minimum else { return true }
        guard let percent = coverage.percent else { return false }
        return percent >= minimum
    }

    /// `80%`, `87.5%`, `66.6%`: a percentage cut (not rounded) to one decimal, so that a machine
    /// with one transition left is never shown as 100%.
    static func percent(_ value: Double?) -> String {
        guard let value else { return "n/a" }
        return decimal(value, places: 1) + "%"
    }

    /// `value` cut to `places` decimals, without trailing zeros: `66.66`, `80`.
    static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((value * Double(scale)).rounded(.down))
        var text = String(scaled / scale)
        var fraction = scaled % scale
        guard fraction > 0 else { return text }
        var digits = String(fraction)
        digits = String(repeating: "0", count: places - digits.count) + digits
        while digits.hasSuffix("0") {
            digits.removeLast()
            fraction /= 10
        }
        text += "." + digits
        return text
    }

    /// `4 of 5 declared transitions taken (80%)`.
    static func summary(taken: Int, declared: Int, percent: Double?) -> String {
        "\(taken) of \(counted(declared, "declared transition")) taken (\(Self.percent(percent)))"
    }

    /// `idle → loading`.
    static func pair(_ transition: MachineCoverage.Transition) -> String {
        "\(transition.from) → \(transition.to)"
    }

    /// `3 times in 2 traces`, `once in 1 trace`, `never`.
    static func taken(_ transition: MachineCoverage.Transition) -> String {
        switch transition.count {
        case 0: "never"
        case 1: "once in 1 trace"
        default: "\(transition.count) times in \(counted(transition.traces, "trace"))"
        }
    }

    /// The sentence for the threshold, when there is one: `coverage 76.9% is below --min 80%`.
    var thresholdLine: String? {
        guard let minimum else { return nil }
        let wanted = Self.decimal(minimum, places: 2) + "%"
        guard coverage.percent != nil else {
            return "no machine of these traces declares a transition: nothing to cover, so --min \(wanted) is not met"
        }
        let verdict = passes ? "meets" : "is below"
        return "coverage \(Self.percent(coverage.percent)) \(verdict) --min \(wanted)"
    }
}
