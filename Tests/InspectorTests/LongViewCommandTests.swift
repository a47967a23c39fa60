import Foundation
import Testing
import TraceReader

@testable import Inspector

/// Issue 36's smaller items: `s` filters to the current step's store, `log --action` names the
/// real actions when none matches, and `when --before` on a path that is in no state says so.
@Suite struct LongViewCommandTests {
    /// From a CartStore step, `s` filters to CartStore, and the list shows only its rows; from
    /// a step of another store, the view moves to the filter's nearest event.
    @Test func sStartsFromTheCurrentStepsStore() throws {
        let trace = try RecordedTrace()
        var view = try StepViewTests.view(trace, at: 6)
        StepViewTests.press(&view, .character("s"))
        #expect(view.session.filter.store == "CartStore")
        let rows = view.render(columns: 100, rows: 30)
        let listed = rows.dropFirst().prefix { !$0.hasPrefix("──") }.filter {
            !$0.trimmingCharacters(in: .whitespaces).isEmpty
        }
        #expect(!listed.isEmpty && listed.allSatisfy { $0.contains("CartStore") }, "\(listed)")
        // Then the next store, whose nearest event the view moves to, then all again.
        StepViewTests.press(&view, .character("s"))
        #expect(view.session.filter.store == "CatalogStore")
        #expect(view.session.event?.store == "CatalogStore")
        StepViewTests.press(&view, .character("s"))
        #expect(view.session.filter.store == nil)
    }

    @Test func logWithAnUnknownActionListsTheActions() throws {
        let trace = try RecordedTrace()
        let result = inspector(["log", trace.path, "--action", "nope"])
        #expect(result.status == 2)
        #expect(result.err.contains("no action named 'nope'"))
        #expect(result.err.contains("its actions are: register, toLoading, load, add"), "\(result.err)")
        #expect(inspector(["log", trace.path, "--action", "add"]).status == 0)
    }

    @Test func whenBeforeOnAPathInNoStateSaysSo() throws {
        let trace = try RecordedTrace()
        let result = inspector(["when", trace.path, "CartStore.nothing", "--before", "5"])
        #expect(result.out.contains("CartStore.nothing is not in any state"), "\(result.out)")
        let changed = inspector(["when", trace.path, "CartStore.items", "--after", "6"])
        #expect(changed.out.contains("step 7"), "\(changed.out)")
        let quiet = inspector(["when", trace.path, "CartStore.items", "--after", "7"])
        #expect(quiet.out.contains("did not change after step 7"), "\(quiet.out)")
    }
}
