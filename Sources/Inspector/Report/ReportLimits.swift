/// How large a report may be before `inspector report` asks for a window of steps instead.
///
/// The page keeps every event's state as JSON text and parses it only when shown, and draws only
/// the timeline rows on screen, so it stays quick on 100,000 events; past the limits below a
/// browser tab spends seconds loading the file and hundreds of megabytes holding it. One
/// JavaScript string holds the states, and browsers cap strings at about 512 MiB. The machines
/// are bounded too: each shown machine is markup, a drawing and data.
struct ReportLimits: Equatable {
    /// The most events a report holds: 200,000 by default.
    var maximumEvents = 200_000
    /// The most bytes of state text a report holds: 100 MiB by default.
    var maximumStateBytes = 100 << 20

    /// The most state machines a report shows: past it, a page of 100,000 machines took 150 MB
    /// and no browser could open it. The rest are counted on the page.
    var maximumMachines = 500
    /// The most cases and transitions the shown machines may have in all (each is markup and
    /// data in the page); a machine that would pass either is left out, and counted.
    var maximumCases = 20_000
    var maximumTransitions = 50_000
    /// The most stores without a machine the page names; the rest are counted.
    var maximumUnmachinedNames = 100

    /// The largest `--max-size`, in MiB, under the browsers' string limit.
    static let largestStateMegabytes = 400
}
