import Foundation

/// Runs `body` on a thread of its own and returns what it returns (or throws what it throws),
/// the calling thread waiting meanwhile.
///
/// For recordings that tests share: the call stacks inside `body` are then the same whichever
/// test calls, so the recorder, which symbolicates an illegal transition's stack once per
/// distinct stack (about a second of CPU in a large debug test binary) and remembers it,
/// answers every later recording of the same code from what it remembers.
public func onOwnThread<Value>(_ body: () throws -> Value) throws -> Value {
    try withoutActuallyEscaping(body) { body in
        let work = OwnThreadWork(body)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            work.run()
            done.signal()
        }
        thread.stackSize = 8 << 20  // as a main thread's: recordings of deep states recurse
        thread.start()
        done.wait()
        return try work.result!.get()
    }
}

/// The body and the result of `onOwnThread`. Unchecked `Sendable`: the body runs on the new
/// thread while the calling thread waits on a semaphore the new thread signals after it, so the
/// two never touch `result` (or the body's captures) at the same time.
///
/// The body is let go as soon as it has run, before the calling thread is woken: it must not
/// outlive `withoutActuallyEscaping`, and the thread object may keep this object a little longer.
private final class OwnThreadWork<Value>: @unchecked Sendable {
    var body: (() throws -> Value)?
    var result: Result<Value, any Error>?

    init(_ body: @escaping () throws -> Value) { self.body = body }

    func run() {
        guard let body else { return }
        result = Result { try body() }
        self.body = nil
    }
}
