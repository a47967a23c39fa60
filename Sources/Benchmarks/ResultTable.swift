import Foundation

/// The table the benchmark prints: each figure beside the baseline measured in the same run,
/// their ratio, and the target.
struct ResultTable {
    struct Row {
        var name: String
        var figure: String
        var baseline: String
        var ratio: String
        var target: String
        var met: Bool?
    }

    private(set) var rows: [Row] = []

    mutating func add(_ name: String, figure: String, baseline: String, ratio: String, target: String, met: Bool?) {
        rows.append(Row(name: name, figure: figure, baseline: baseline, ratio: ratio, target: target, met: met))
        print("  measured: \(name): \(figure) vs \(baseline) → \(ratio) (target \(target))")
    }

    /// The table as Markdown, ready for the README.
    func markdown() -> String {
        var lines = [
            "| measurement | Rewind | baseline (same run) | ratio | target | met |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for row in rows {
            let met = row.met.map { $0 ? "yes" : "**no**" } ?? "n/a"
            lines.append("| \(row.name) | \(row.figure) | \(row.baseline) | \(row.ratio) | \(row.target) | \(met) |")
        }
        return lines.joined(separator: "\n")
    }
}

func formatSeconds(_ seconds: Double) -> String {
    if seconds.isNaN { return "n/a" }
    if seconds < 1e-6 { return String(format: "%.0f ns", seconds * 1e9) }
    if seconds < 1e-3 { return String(format: "%.2f µs", seconds * 1e6) }
    if seconds < 1 { return String(format: "%.1f ms", seconds * 1e3) }
    return String(format: "%.2f s", seconds)
}

func formatRatio(_ ratio: Double) -> String {
    ratio >= 10 ? String(format: "%.0f×", ratio) : String(format: "%.2f×", ratio)
}

func formatBytes(_ bytes: Int) -> String {
    if bytes >= 1 << 30 { return String(format: "%.2f GB", Double(bytes) / Double(1 << 30)) }
    if bytes >= 1 << 20 { return String(format: "%.1f MB", Double(bytes) / Double(1 << 20)) }
    if bytes >= 1 << 10 { return String(format: "%.1f KB", Double(bytes) / Double(1 << 10)) }
    return "\(bytes) B"
}
