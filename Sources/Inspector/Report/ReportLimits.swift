/// How large a report may be before `inspector report` asks for a window of steps instead.
///
/// The page keeps every event's state as JSON text and parses it only when shown, and draws only
/// the timeline rows on screen, so it stays quick on 100,000 events; past the limits below a
/// browser tab spends seconds loading the file and hundreds of megabytes holding it. One
/// JavaScript string holds the states, and browsers cap strings at about 512 MiB.
struct ReportLimits: Equatable {
    /// The most events a report holds: 200,000 by default.
    var maximumEvents = 200_000
    /// The most bytes of state text a report holds: 100 MiB by default.
    var maximumStateBytes = 100 << 20

    /// The largest `--max-size`, in MiB, under the browsers' string limit.
    static let largestStateMegabytes = 400
}
