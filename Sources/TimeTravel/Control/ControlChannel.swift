import Dispatch
@_spi(RewindInternals) internal import RewindSupport
import TraceReader

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A Unix domain socket through which `inspector step --attach SOCKET` sets the running app to
/// the steps of its own trace, and back to its present.
///
/// Open one only when the app asks for it, in a debug build:
///
/// ```swift
/// #if DEBUG
/// let channel = try ControlChannel(
///     socketPath: "/tmp/shop.sock", tracePath: tracePath, restorer: restorer,
///     perform: { work in DispatchQueue.main.async(execute: work) })   // where the stores live
/// #endif
/// ```
///
/// What it promises the app:
/// - The socket file is created with mode 0600, and a connection from another user's process is
///   refused (its peer credentials are checked). An existing socket at the path that no program
///   listens on is replaced; any other file there is never touched (the channel does not open).
/// - It runs on a thread of its own. A restore runs where `perform` puts it (the app's main
///   thread, for stores that live there); `onRestore` runs after it, on the same thread, to draw
///   the screen again; the inspector's reply is sent after both.
/// - One inspector at a time: a second one gets an error reply and is disconnected.
/// - A malformed or hostile message never crashes or blocks the app: it gets an error reply.
///   A message is one JSON object on one line, at most `Limits.maximumMessageBytes`; a longer
///   one, or one whose line does not end within `Limits.messageMilliseconds`, is answered with
///   an error and the connection is closed. An inspector that does not read its replies within
///   `Limits.replyMilliseconds` is disconnected. Sending never raises SIGPIPE.
/// - An inspector that quits or is killed leaves the app running, at the step it was set to;
///   the next one can attach and send it back to its present.
/// - The requests only move the app among the states of its own trace (`restore` takes a step
///   number, never a state), so a program that can attach can read nothing and set nothing else.
/// - It serves only the trace the app writes: the file the restorer's stores record to, by the
///   device and inode of their recorder's open file (a `FileSink`), whatever is at `tracePath`
///   when the channel opens; for stores recorded otherwise (a rolling trace), the file at
///   `tracePath` when the channel opens. When another file has taken that path (a second app
///   started with the same trace path, which replaced the file, even before the channel
///   opened), every request is refused and `onError` is told, once: the steps at the path are
///   another run's, and restoring them would give the app states it never had.
///
/// The present is the last step of the trace before the first restore: `present` sets the app
/// back to it, and the next restore remembers the new present.
public final class ControlChannel: Sendable {
    /// The bounds that keep a slow, stuck or hostile inspector from holding the app.
    public struct Limits: Sendable {
        /// The longest message, in bytes before its `\n`.
        public var maximumMessageBytes = 65_536
        /// How long a message that has started may take to end.
        public var messageMilliseconds: Int32 = 5_000
        /// How long the inspector may take to read a reply.
        public var replyMilliseconds: Int32 = 2_000
        /// How long `perform` may take to start a restore before the inspector is told that the
        /// app is busy. A restore so answered never runs, even if `perform` gets to it later.
        public var restoreMilliseconds = 10_000

        /// The default bounds.
        public init() {}
    }

    /// The socket's path.
    public let socketPath: String
    /// The trace the app restores from, as an absolute path (the inspector follows it).
    public let tracePath: String
    private let server: ControlServer

    /// Opens the channel: creates the socket and starts its thread.
    /// - Parameters:
    ///   - socketPath: where the socket goes; by default `defaultSocketPath(forTrace:)`: next
    ///     to the trace (`run.jsonl` → `run.sock`) when that fits, else `/tmp/rewind-UID/`
    ///     (a trace in an iOS Simulator app's container). A path given here has at most 103
    ///     bytes on Apple systems, 107 on Linux.
    ///   - tracePath: the app's trace, which its `TraceRecorder` writes.
    ///   - restorer: the app's restorable stores.
    ///   - redactedValues: what a restore does with values the trace holds as `"<redacted>"`.
    ///   - limits: how long and how large messages may be.
    ///   - perform: runs a restore where the app's stores may be changed; by default, at once
    ///     on the channel's thread.
    ///   - onRestore: called after each restore, where it ran, with its report.
    ///   - onError: called, once, when the channel stops serving: the file at `tracePath` is not
    ///     the one the app's recorder writes. By default the message is printed to standard error.
    /// - Throws: `ControlChannelError` when the socket cannot be created (the message says why).
    public init(
        socketPath: String? = nil, tracePath: String, restorer: Restorer,
        redactedValues: RedactedValuePolicy = .keepLive, limits: Limits = Limits(),
        perform: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { $0() },
        onRestore: @escaping @Sendable (RestoreReport) -> Void = { _ in },
        onError: (@Sendable (ControlChannelError) -> Void)? = nil
    ) throws(ControlChannelError) {
        let trace =
            tracePath.hasPrefix("/") ? tracePath : FileManager.default.currentDirectoryPath + "/" + tracePath
        let path = socketPath ?? Self.defaultSocketPath(forTrace: trace)
        if socketPath == nil && ControlSocketLocation.isInPrivateDirectory(path) {
            try ControlSocketLocation.preparePrivateDirectory()
        }
        self.socketPath = path
        self.tracePath = trace
        server = try ControlServer(
            socketPath: path,
            job: RestoreJob(
                tracePath: trace, restorer: restorer, redactedValues: redactedValues, onRestore: onRestore,
                onError: onError ?? { error in SystemCalls.writeAll(2, "rewind: \(error.message)\n") }),
            limits: limits, perform: perform)
        server.start()
    }

    /// The socket path a channel opened on the trace at `tracePath` (absolute) has by default:
    /// next to the trace, its path without `.jsonl` and with `.sock`, when that fits in a Unix
    /// socket's path (103 bytes on Apple systems, 107 on Linux); else, as for an app in the iOS
    /// Simulator, whose container's path alone is longer, `/tmp/rewind-UID/HASH.sock`, named
    /// after the trace's real path, in a directory of the user's own (mode 0700).
    /// `inspector step --attach TRACE` finds the socket from the trace either way.
    public static func defaultSocketPath(forTrace tracePath: String) -> String {
        ControlSocketLocation.defaultPath(forTrace: tracePath)
    }

    /// Closes the channel: disconnects the inspector, stops the thread and removes the socket
    /// file. The app stays at the step it was set to. Calling it again does nothing.
    public func close() {
        server.stop()
    }

    deinit {
        server.stop()
    }
}

/// What a request does on the app's side: open the trace as it is now, restore, remember the
/// present.
struct RestoreJob: Sendable {
    let tracePath: String
    let restorer: Restorer
    let redactedValues: RedactedValuePolicy
    let onRestore: @Sendable (RestoreReport) -> Void
    let onError: @Sendable (ControlChannelError) -> Void
    /// The last step before the first restore, while the app is away from it. Guarded by a
    /// `Lock`: the job runs wherever `perform` puts it.
    let present = Lock<Int?>(nil)
    /// The trace file the app writes (its device and inode): the file the restorer's stores'
    /// recorder has open, or else the file at `tracePath` when the channel opens or, when no
    /// file was there yet, at the first request; and whether `onError` was told that another
    /// file took its path. Guarded by a `Lock`: the job runs wherever `perform` puts it.
    let identity: Lock<(file: FileIdentity?, reported: Bool)>

    /// The device and inode of a file: what stays the same while it is written and renamed.
    struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    init(
        tracePath: String, restorer: Restorer, redactedValues: RedactedValuePolicy,
        onRestore: @escaping @Sendable (RestoreReport) -> Void,
        onError: @escaping @Sendable (ControlChannelError) -> Void
    ) {
        self.tracePath = tracePath
        self.restorer = restorer
        self.redactedValues = redactedValues
        self.onRestore = onRestore
        self.onError = onError
        // The recorder's own open file, not a look-up of the path: another app may have
        // replaced the file before the channel opened.
        let recorded = restorer.traceFileIdentity.map { FileIdentity(device: $0.device, inode: $0.inode) }
        identity = Lock((recorded ?? Self.identity(ofPath: tracePath), false))
    }

    static func identity(ofPath path: String) -> FileIdentity? {
        guard let status = try? SystemCalls.status(ofPath: path, followingLinks: true) else { return nil }
        return FileIdentity(device: status.device, inode: status.inode)
    }

    /// Nil when the file at `tracePath` is the app's trace; else why the request is refused
    /// (told to `onError` the first time).
    private func replacedTraceMessage() -> String? {
        let now = Self.identity(ofPath: tracePath)
        let found: (message: String, firstTime: Bool)? = identity.withLock { identity in
            guard let now else { return nil }  // no file: opening it fails and says so
            guard let own = identity.file else {
                identity.file = now
                return nil
            }
            guard own != now else { return nil }
            let message =
                "the file at \(tracePath) is no longer the trace this app writes (device \(own.device), inode \(own.inode); now device \(now.device), inode \(now.inode)): another program replaced it, perhaps a second app started with the same trace path. Its steps are another run's, so this app's control channel refuses to restore from it; give each app a trace path of its own"
            defer { identity.reported = true }
            return (message, !identity.reported)
        }
        guard let found else { return nil }
        if found.firstTime { onError(ControlChannelError(found.message)) }
        return found.message
    }

    /// Runs `request`; returns the reply.
    func run(_ request: ControlRequest) -> ControlReply {
        if let refused = replacedTraceMessage() { return .error(refused) }
        let trace: TraceFile
        do {
            trace = try TraceFile(path: tracePath)
        } catch {
            return .error("the app cannot read its trace: \(error)")
        }
        let step: Int
        let toPresent: Bool
        switch request {
        case .restore(let wanted):
            step = wanted
            toPresent = false
        case .present:
            guard let presentStep = present.withLock({ $0 }) else {
                return .restored(step: trace.lastStep, present: true, stores: [], absent: [], kept: [])
            }
            step = presentStep
            toPresent = true
        }
        do {
            let report = try restorer.restore(from: trace, atStep: step, redactedValues: redactedValues)
            // The trace as opened does not have this restore's events: its last step is the
            // state the app had before it.
            present.withLock { present in
                if toPresent { present = nil } else if present == nil { present = trace.lastStep }
            }
            onRestore(report)
            return .restored(
                step: step, present: toPresent, stores: report.restored, absent: report.absent,
                kept: report.keptValues.map(\.description))
        } catch {
            return .error(error.message)
        }
    }
}
