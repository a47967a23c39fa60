import Foundation
import Recorder

// Small stores and states that the test targets share.

public enum Product: Equatable, Codable, Sendable {
    case book(title: String, price: Double)
    case gift
}

/// The README's machine, declared `public` as a library declares it, which must compile as the
/// README writes it (its `Case` is `Sendable`, as `StateMachine` requires).
public enum CatalogState: StateMachine, Equatable, Codable, Sendable {
    case idle
    case loading
    case loaded([String])
    case failed(String)

    public enum Case: String, CaseIterable, Sendable { case idle, loading, loaded, failed }

    public static let initialCase = Case.idle

    public var currentCase: Case {
        switch self {
        case .idle: .idle
        case .loading: .loading
        case .loaded: .loaded
        case .failed: .failed
        }
    }

    public static func transitions(from source: Case) -> [Case] {
        switch source {
        case .idle: [.loading]
        case .loading: [.loaded, .failed]
        case .loaded, .failed: [.loading]
        }
    }
}

public final class CatalogStore: Store<CatalogState>, @unchecked Sendable {
    public init(recorder: TraceRecorder?, policy: IllegalTransitionPolicy = .record) {
        super.init(initialState: .idle, recorder: recorder, policy: policy)
    }

    public func toLoading() {
        send { $0 = .loading }
    }

    public func finish(_ titles: [String]) {
        send(args: ["count": titles.count]) { $0 = .loaded(titles) }
    }
}

public struct Counter: Equatable, Codable, Sendable {
    public var value = 0
    public init(value: Int = 0) { self.value = value }
}

public struct Account: Equatable, Codable, Sendable {
    public struct Session: Equatable, Codable, Sendable {
        public var token: String
        public var user: String
        public init(token: String, user: String) {
            self.token = token
            self.user = user
        }
    }
    public var name: String
    public var password: String
    public var sessions: [Session]
    public var extra: [String: String]
    public init(name: String, password: String, sessions: [Session], extra: [String: String]) {
        self.name = name
        self.password = password
        self.sessions = sessions
        self.extra = extra
    }
}
