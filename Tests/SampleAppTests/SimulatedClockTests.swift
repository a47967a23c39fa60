import Synchronization
import Testing

@testable import SampleApp

@Suite struct SimulatedClockTests {
    @Test func runsWorkAtItsTickInTheOrderItWasScheduled() {
        let clock = SimulatedClock()
        let log = Mutex<[String]>([])
        clock.schedule(after: 2) { log.withLock { $0.append("b") } }
        clock.schedule(after: 1) { log.withLock { $0.append("a") } }
        clock.schedule(after: 2) { log.withLock { $0.append("c") } }
        clock.advance(by: 1)
        #expect(log.withLock { $0 } == ["a"])
        #expect(clock.hasPendingWork)
        clock.advance(by: 1)
        #expect(log.withLock { $0 } == ["a", "b", "c"])
        #expect(!clock.hasPendingWork)
        #expect(clock.now == 2)
    }

    @Test func advancesUntilIdleAndNoFurther() {
        let clock = SimulatedClock()
        clock.schedule(after: 3) {}
        clock.advanceUntilIdle()
        #expect(clock.now == 3)
        clock.advanceUntilIdle()
        #expect(clock.now == 3)
    }

    @Test func givesUpOnWorkThatKeepsSchedulingMore() {
        let clock = SimulatedClock()
        @Sendable func again() { clock.schedule(after: 1, again) }
        again()
        clock.advanceUntilIdle()
        #expect(clock.now == SimulatedClock.patience)
    }
}
