import Foundation
@_spi(RewindInternals) import RewindSupport
import Testing

/// `Lock.withLock(waitingOn:until:_:)` waits without the lock until another thread changes the
/// value and broadcasts, then runs its body with the value as that thread left it.
@Suite struct LockConditionTests {
    @Test func aWaiterRunsOnceAnotherThreadHasChangedTheValue() {
        let lock = Lock(0)
        let condition = LockCondition()
        let waiters = 4
        let seen = Lock<[Int]>([])
        let done = DispatchGroup()
        for _ in 0..<waiters {
            done.enter()
            Thread {
                // Each waiter needs the value to reach 100, which only the loop below makes it.
                let value = lock.withLock(waitingOn: condition, until: { $0 >= 100 }) { $0 }
                seen.withLock { $0.append(value) }
                done.leave()
            }.start()
        }
        for _ in 0..<100 {
            lock.withLock { $0 += 1 }
            condition.broadcast()
        }
        done.wait()
        #expect(seen.withLock { $0 } == Array(repeating: 100, count: waiters))
    }

    @Test func aValueThatIsReadyRunsTheBodyWithoutWaiting() {
        let lock = Lock(7)
        var checks = 0
        let doubled = lock.withLock(waitingOn: LockCondition()) { _ in
            checks += 1
            return true
        } _: { value in
            value * 2
        }
        #expect(doubled == 14)
        #expect(checks == 1)
    }
}
