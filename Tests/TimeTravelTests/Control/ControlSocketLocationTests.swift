import Foundation
@_spi(RewindInternals) import RewindSupport
import TestSupport
import Testing

@testable import TimeTravel

/// The default socket of a trace whose path is too long for one (an app in the iOS Simulator,
/// recording in its container): a short one in the user's private directory, which the
/// inspector finds from the trace. Serialized: the second test changes that directory's mode.
@Suite(.serialized) struct ControlSocketLocationTests {
    /// A folder whose path, with a trace's name, is longer than any system's socket path (108).
    static func longFolder(in folder: TemporaryFolder) throws -> String {
        let path = folder.path(
            "Library/Developer/CoreSimulator/Devices/6A1B2C3D-0000-4000-8000-000000000001/data/Containers/Data/Application/0F1E2D3C-0000-4000-8000-000000000002/Library/Application Support"
        )
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aTracePathTooLongForASocketGetsAShortOneThatTheInspectorFinds() throws {
        let folder = try TemporaryFolder()
        let tracePath = try Self.longFolder(in: folder) + "/shop.jsonl"
        #expect(ControlSocketLocation.besideTrace(tracePath).utf8.count > 108)
        let app = try SessionApp(tracePath: tracePath)
        app.session.logIn("alice", token: "t-alice")
        app.documents.loaded("Q3 report")
        app.session.logOut()

        let channel = try ControlChannel(tracePath: tracePath, restorer: app.restorer)
        defer { channel.close() }
        #expect(channel.socketPath.utf8.count <= SocketCalls.maximumPathLength)
        #expect(channel.socketPath.hasPrefix("/tmp/rewind-\(getuid())/"))
        let socket = try SystemCalls.status(ofPath: channel.socketPath, followingLinks: false)
        #expect(socket.kind == .socket && socket.permissions == 0o600)
        let directory = try SystemCalls.status(ofPath: "/tmp/rewind-\(getuid())", followingLinks: false)
        #expect(directory.kind == .directory && directory.permissions == 0o700 && directory.owner == getuid())

        // The inspector, given only the trace, finds the socket, connects and sets the app to
        // a step.
        let found = try ControlClient.socketPath(forTrace: tracePath)
        #expect(found == channel.socketPath)
        let client = try ControlClient(socketPath: found)
        #expect(client.tracePath == tracePath)
        let reply = try client.request(.restore(step: 3))
        #expect(
            reply
                == .restored(step: 3, present: false, stores: ["SessionStore", "DocumentStore"], absent: [], kept: []))
        #expect(app.session.state == .loggedIn(user: "alice", token: "t-alice"))

        // A trace next to which the socket fits keeps it there.
        let short = folder.path("run.jsonl")
        #expect(ControlChannel.defaultSocketPath(forTrace: short) == folder.path("run.sock"))

        channel.close()
        #expect(!FileManager.default.fileExists(atPath: channel.socketPath))
        let gone = #expect(throws: ControlChannelError.self) { try ControlClient.socketPath(forTrace: tracePath) }
        #expect(gone?.message.contains("no app has a control channel open on") == true)
    }

    @Test func aPrivateDirectoryOthersCanWriteToIsRefused() throws {
        let folder = try TemporaryFolder()
        let tracePath = try Self.longFolder(in: folder) + "/run.jsonl"
        let app = try SessionApp(tracePath: tracePath)
        try ControlSocketLocation.preparePrivateDirectory()
        let directory = ControlSocketLocation.privateDirectory
        #expect(chmod(directory, 0o777) == 0)
        defer { chmod(directory, 0o700) }
        let refused = #expect(throws: ControlChannelError.self) {
            try ControlChannel(tracePath: tracePath, restorer: app.restorer)
        }
        #expect(refused?.message.contains("is not a private directory of this user's") == true)
    }
}
