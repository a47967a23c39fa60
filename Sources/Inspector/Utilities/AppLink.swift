import Dispatch
@_spi(RewindInternals) internal import RewindSupport
import TimeTravel

/// The full-screen view's connection to an attached app (`step --attach`), on a thread of its
/// own so that the view never waits for the app: the view hands it the latest request (`send`;
/// one not sent yet is replaced, so holding → sends only where the person stops), and takes the
/// answers on its next tick (`takeAnswers`).
///
/// A class: it owns the connection and its thread. The `ControlClient` is used only by that
/// thread; the view and the thread share only the mailbox, under its lock.
final class AppLink: @unchecked Sendable {
    typealias Answer = (request: ControlRequest, outcome: Result<ControlReply, ControlChannelError>)

    private struct Mailbox {
        var wanted: ControlRequest?
        var answers: [Answer] = []
        var closed = false
    }

    private let client: ControlClient
    private let mailbox = Lock(Mailbox())
    private let wake = DispatchSemaphore(value: 0)

    init(_ client: ControlClient) {
        self.client = client
        // A queue of its own: a thread for as long as `run` runs (Foundation's `Thread` would
        // bring Foundation and ICU into the inspector, a few milliseconds on every start).
        DispatchQueue(label: "Rewind attached app").async { [self] in run() }
    }

    /// Asks the app for `request`, in place of any request not sent yet.
    func send(_ request: ControlRequest) {
        mailbox.withLock { $0.wanted = request }
        wake.signal()
    }

    /// The answers that came since the last call.
    func takeAnswers() -> [Answer] {
        mailbox.withLock { box in
            defer { box.answers = [] }
            return box.answers
        }
    }

    /// Ends the thread after the request being sent, if any; the app is left where it is.
    func close() {
        mailbox.withLock { $0.closed = true }
        wake.signal()
    }

    private func run() {
        var gone: ControlChannelError?
        while true {
            wake.wait()
            let (request, closed) = mailbox.withLock { box in
                defer { box.wanted = nil }
                return (box.wanted, box.closed)
            }
            if closed { return }
            guard let request else { continue }
            let outcome: Result<ControlReply, ControlChannelError>
            if let gone {
                outcome = .failure(gone)
            } else {
                outcome = Result { () throws(ControlChannelError) in try client.request(request) }
                if case .failure(let error) = outcome { gone = error }
            }
            mailbox.withLock { $0.answers.append((request, outcome)) }
        }
    }
}
