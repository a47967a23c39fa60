import Synchronization
import Testing

@testable import SampleApp

@Suite struct FakeCatalogServiceTests {
    /// The latency and outcome of the first `count` requests.
    func outcomes(seed: UInt64, failurePercent: Int, count: Int) -> [(tick: Int, failed: Bool)] {
        let clock = SimulatedClock()
        let service = FakeCatalogService(clock: clock, seed: seed, failurePercent: failurePercent)
        let results = Mutex<[(Int, Bool)]>([])
        for _ in 0..<count {
            service.fetchProducts { result in
                let failed = if case .failure = result { true } else { false }
                results.withLock { $0.append((clock.now, failed)) }
            }
        }
        clock.advanceUntilIdle()
        return results.withLock { $0 }
    }

    @Test func theSameSeedGivesTheSameDelaysAndFailures() {
        let first = outcomes(seed: 7, failurePercent: 50, count: 20)
        let second = outcomes(seed: 7, failurePercent: 50, count: 20)
        #expect(first.map(\.tick) == second.map(\.tick))
        #expect(first.map(\.failed) == second.map(\.failed))
        #expect(first.count == 20)
        #expect(first.allSatisfy { (1...FakeCatalogService.maximumLatency).contains($0.tick) })
    }

    @Test func failureRatesOfNoneAndAllAreHonoured() {
        #expect(outcomes(seed: 3, failurePercent: 0, count: 30).allSatisfy { !$0.failed })
        #expect(outcomes(seed: 3, failurePercent: 100, count: 30).allSatisfy { $0.failed })
    }

    @Test func differentSeedsGiveDifferentRuns() {
        let runs = (1...5).map { seed in
            outcomes(seed: UInt64(seed), failurePercent: 50, count: 12).map { "\($0.tick)\($0.failed)" }
        }
        #expect(Set(runs).count > 1)
    }
}
