import Foundation
import Recorder
import TestSupport
import Testing

/// Secrets never reach the file, by every route an app written from the README took: each test
/// records to a real file and searches its raw bytes.
@Suite struct RedactionTests {
    /// Records `state` and then `change` to a file with `redaction`; returns the file's bytes as
    /// text.
    static func record<State: Equatable & Encodable & Sendable>(
        _ state: State, redaction: Redaction, args: ActionArguments? = nil,
        change: @escaping (inout State) -> Void = { _ in }
    ) throws -> String {
        let folder = try TemporaryFolder()
        let path = folder.path("secrets.jsonl")
        let store = Store(
            initialState: state, name: "Secrets", recorder: try TraceRecorder(path: path, redactedKeys: redaction))
        store.send("change", args: args, change)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// Keys spelled `Password` and `PASSWORD` in the JSON (a Swift property would be camel case;
    /// a server's field names are not).
    struct Shouting: Codable, Equatable, Sendable {
        var mixed: String
        var upper: String
        var user = "ada"
        enum CodingKeys: String, CodingKey {
            case mixed = "Password"
            case upper = "PASSWORD"
            case user
        }
    }

    struct Keyed: Codable, Equatable, Sendable {
        var secret: String
        var headers: [String: String]
        enum CodingKeys: String, CodingKey {
            case secret = "Password"
            case headers
        }
    }

    @Test func keysMatchWithoutRegardToCase() throws {
        let text = try Self.record(
            Shouting(mixed: "secret-mixed-1", upper: "secret-upper-2"), redaction: ["password"])
        #expect(!text.contains("secret-mixed-1") && !text.contains("secret-upper-2"))
        #expect(text.contains(#""Password":"<redacted>","PASSWORD":"<redacted>","user":"ada""#))
        let keyed = try Self.record(
            Keyed(secret: "secret-raw-3", headers: ["Authorization": "Bearer secret-bearer-4", "Accept": "json"]),
            redaction: ["password", "authorization"])
        #expect(!keyed.contains("secret-raw-3") && !keyed.contains("secret-bearer-4"))
        #expect(keyed.contains(#""Accept":"json""#))
    }

    struct Session: Codable, Equatable, Sendable {
        var accessToken: String
        var refreshToken: String
        var tokenCount: Int
        var user: String
        enum CodingKeys: String, CodingKey {
            case accessToken
            case refreshToken = "refresh_token"
            case tokenCount, user
        }
    }

    @Test func aRuleCanNameAPartOfAKey() throws {
        let text = try Self.record(
            Session(accessToken: "secret-access-5", refreshToken: "secret-refresh-6", tokenCount: 2, user: "ada"),
            redaction: [.keyContaining("TOKEN")])
        #expect(!text.contains("secret-access-5") && !text.contains("secret-refresh-6"))
        #expect(text.contains(#""tokenCount":"<redacted>","user":"ada""#))
        // An exact rule does not cover a longer key.
        let exact = try Self.record(
            Session(accessToken: "visible-7", refreshToken: "r", tokenCount: 1, user: "u"),
            redaction: Redaction(["token"], sensitiveKeys: false))
        #expect(exact.contains("visible-7"))
    }

    enum Login: Codable, Equatable, Sendable {
        case editing
        case submitting(Secret<String>)
    }

    @Test func aSecretIsRedactedWhereverItIs() throws {
        let text = try Self.record(Login.editing, redaction: [], args: ["pin": Secret(4321), "user": "ada"]) {
            $0 = .submitting(Secret("secret-payload-8"))
        }
        #expect(!text.contains("secret-payload-8") && !text.contains("4321"))
        #expect(text.contains(#"{"submitting":{"_0":"<redacted>"}}"#))
        #expect(text.contains(#""args":{"pin":"<redacted>","user":"ada"}"#))
        let list = try Self.record([Secret("secret-in-array-9"), Secret("secret-in-array-10")], redaction: [])
        #expect(!list.contains("secret-in-array"))
        #expect(list.contains(#"["<redacted>","<redacted>"]"#))
    }

    @Test func aSecretIsItsValueEverywhereElse() throws {
        let login = Login.submitting(Secret("pw"))
        let data = try JSONEncoder().encode(login)
        #expect(String(decoding: data, as: UTF8.self) == #"{"submitting":{"_0":"pw"}}"#)
        #expect(try JSONDecoder().decode(Login.self, from: data) == login)
        #expect("\(Secret("pw"))" == "<redacted>")
        #expect(String(reflecting: Secret("pw")) == "<redacted>")
        var dumped = ""
        dump(Secret("pw"), to: &dumped)
        #expect(!dumped.contains("pw"))
    }

    enum Field: String, Codable, Hashable, Sendable { case name, password }

    @Test func theKeysOfAnEnumKeyedDictionaryAreSeen() throws {
        let text = try Self.record([Field.name: "ada", .password: "secret-field-11"], redaction: ["password"])
        #expect(!text.contains("secret-field-11"))
        #expect(text.contains(#"{"name":"ada","password":"<redacted>"}"#))
    }

    @Test func aRedactionBuiltAtRunTimeAndItsOwnCheck() throws {
        let names = ["pin", "Secret"]
        let redaction = Redaction(keys: names)
        #expect(redaction.covers("PIN") && redaction.covers("secret") && !redaction.covers("pins"))
        #expect(Redaction([.keyContaining("tok")]).covers("accessToken"))
        let text = try Self.record(["PIN": "secret-pin-12", "secret": "secret-13", "other": "x"], redaction: redaction)
        #expect(!text.contains("secret-pin-12") && !text.contains("secret-13"))
    }

    /// What an app holds under the usual names of secrets, camel case and snake case.
    struct Credentials: Codable, Equatable, Sendable {
        var userPassword = "secret-default-14"
        var clientSecret = "secret-default-15"
        var sessionToken = "secret-default-16"
        var headers = ["Authorization": "Bearer secret-default-17", "Set-Cookie": "id=secret-default-18"]
        var apiKey = "secret-default-19"
        var snakeKey = "secret-default-20"
        var user = "ada"
        enum CodingKeys: String, CodingKey {
            case userPassword, clientSecret, sessionToken, headers, apiKey, user
            case snakeKey = "api_key"
        }
    }

    @Test func sensitiveKeysAreRedactedByDefault() throws {
        // An app that names no keys (the recorder's default) and one that names others.
        for redaction: Redaction in [[], ["pin"], Redaction(keys: ["pin"])] {
            let text = try Self.record(Credentials(), redaction: redaction, args: ["newPassword": "secret-default-21"])
            #expect(!text.contains("secret-default"), "\(text)")
            #expect(text.contains(#""user":"ada""#))
            #expect(text.contains(#""args":{"newPassword":"<redacted>"}"#))
        }
        let folder = try TemporaryFolder()
        let path = folder.path("default.jsonl")
        let store = Store(initialState: Credentials(), name: "Credentials", recorder: try TraceRecorder(path: path))
        store.send { $0.user = "bob" }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("secret-default") && text.contains(#""user":"bob""#))
    }

    @Test func theDefaultsCanBeTurnedOff() throws {
        let none = try Self.record(Credentials(), redaction: .none)
        #expect(none.contains("secret-default-14") && none.contains("secret-default-19"))
        let only = try Self.record(
            Credentials(), redaction: Redaction([.keyContaining("password")], sensitiveKeys: false))
        #expect(!only.contains("secret-default-14") && only.contains("secret-default-16"))
        let defaults = Redaction()
        #expect(!Redaction.none.covers("password") && defaults.covers("Password"))
    }
}
