import Foundation
import Recorder

// Small stores and states shared by the Recorder tests.

enum Product: Equatable, Codable, Sendable {
    case book(title: String, price: Double)
    case gift
}

enum CatalogState: StateMachine, Equatable, Codable, Sendable {
    case idle
    case loading
    case loaded([String])
    case failed(String)

    enum Case: String, CaseIterable { case idle, loading, loaded, failed }

    static let initialCase = Case.idle

    var currentCase: Case {
        switch self {
        case .idle: .idle
        case .loading: .loading
        case .loaded: .loaded
        case .failed: .failed
        }
    }

    static func transitions(from source: Case) -> [Case] {
        switch source {
        case .idle: [.loading]
        case .loading: [.loaded, .failed]
        case .loaded, .failed: [.loading]
        }
    }
}

final class CatalogStore: Store<CatalogState>, @unchecked Sendable {
    init(recorder: TraceRecorder?, policy: IllegalTransitionPolicy = .record) {
        super.init(initialState: .idle, recorder: recorder, policy: policy)
    }

    func toLoading() {
        send { $0 = .loading }
    }

    func finish(_ titles: [String]) {
        send(args: ["count": titles.count]) { $0 = .loaded(titles) }
    }
}

struct Counter: Equatable, Codable, Sendable {
    var value = 0
}

struct Account: Equatable, Codable, Sendable {
    struct Session: Equatable, Codable, Sendable {
        var token: String
        var user: String
    }
    var name: String
    var password: String
    var sessions: [Session]
    var extra: [String: String]
}

/// Parses each line of a trace with Foundation, failing the test on a line that is not a JSON object.
func jsonObjects(_ lines: [String]) throws -> [[String: Any]] {
    try lines.map { line in
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        guard let dictionary = object as? [String: Any] else {
            throw TestFailure("not a JSON object: \(line)")
        }
        return dictionary
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A fresh temporary folder, removed when the value is released.
final class TemporaryFolder {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Lines of a trace file, without their `\n`.
func traceLines(at path: String) throws -> [String] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
}
