import TestSupport
import Testing

@testable import TraceReader

/// Reading files: blocks, long lines, files that cannot be read, spec files, the problem cap.
@Suite struct TraceValidatorFileTests {
    typealias T = ValidationTesting
    typealias Found = ValidationTesting.Found

    private var sample: [String] {
        [
            T.header, T.register(1), "", T.transition(2, "idle", "loading"), T.transition(4, "loading", "loading"),
            "{bad", T.transition(9, "loading", "loaded"),
        ]
    }

    @Test func aFileIsReadTheSameWhateverTheBlockSize() throws {
        let text = sample.joined(separator: "\n") + "\n" + #"{"type":"trans"#
        let file = try ValidationTemporaryFile(Array(text.utf8))
        let expected = TraceValidator().validate(bytes: Array(text.utf8), file: file.path)
        #expect(
            expected.problems.map(Found.init) == [
                Found(.seq, line: 5, seq: 4, store: "CatalogStore"),
                Found(.illegal, line: 5, seq: 4, store: "CatalogStore"),
                Found(.malformed, line: 6), Found(.truncated, line: 8),
            ])
        for blockSize in [1, 7, 64, 1000, 1 << 20] {
            var validator = TraceValidator()
            validator.blockSize = blockSize
            #expect(try validator.validate(file: file.path) == expected, "block size \(blockSize)")
        }
    }

    @Test func progressIsReportedUpToTheFileSize() throws {
        let text = Array((sample.joined(separator: "\n") + "\n").utf8)
        let file = try ValidationTemporaryFile(text)
        var validator = TraceValidator()
        validator.blockSize = 100
        var seen: [Int] = []
        _ = try validator.validate(file: file.path) { read, total in
            #expect(total == text.count)
            seen.append(read)
        }
        #expect(seen.last == text.count)
        #expect(seen == seen.sorted() && seen.count > 1)
    }

    @Test func aLineLongerThanTheLimitIsMalformedAndSkipped() throws {
        let long = #"{"type":"note","seq":3,"pad":""# + String(repeating: "x", count: 5000) + #""}"#
        let lines = [
            T.header, T.register(1), T.transition(2, "idle", "loading"), long, T.transition(4, "loading", "loaded"),
        ]
        let text = Array((lines.joined(separator: "\n") + "\n").utf8)
        let file = try ValidationTemporaryFile(text)
        var validator = TraceValidator()
        validator.maximumLineLength = 1000
        validator.blockSize = 256
        let report = try validator.validate(file: file.path)
        // The long line is not an event: its transition is lost, seq is not checked after it.
        #expect(report.problems.map(Found.init) == [Found(.malformed, line: 4)])
        #expect(report.problems.first?.message.contains("longer than 1 GiB") == true)
        #expect(validator.validate(bytes: text) == TraceValidator.with(maximumLineLength: 1000).validate(bytes: text))
        #expect(
            TraceValidator.with(maximumLineLength: 1000).validate(bytes: text).problems.map(Found.init) == [
                Found(.malformed, line: 4)
            ])
        // Without the limit the same file is fine.
        #expect(try TraceValidator().validate(file: file.path).problems.isEmpty)
    }

    @Test func aHeaderLongerThanTheLimitIsNotATrace() throws {
        let file = try ValidationTemporaryFile(Array((String(repeating: " ", count: 3000) + T.header + "\n").utf8))
        var validator = TraceValidator()
        validator.maximumLineLength = 1000
        validator.blockSize = 100
        #expect(try validator.validate(file: file.path).problems.map(Found.init) == [Found(.notATrace, line: 1)])
    }

    @Test func aMissingFileOrADirectoryIsAFileError() throws {
        #expect(
            throws: ValidationFileError(
                path: "/nonexistent/trace.jsonl", message: "cannot open: No such file or directory; check the path")
        ) {
            try TraceValidator().validate(file: "/nonexistent/trace.jsonl")
        }
        let file = try ValidationTemporaryFile([])
        #expect(
            throws: ValidationFileError(
                path: file.folder, message: "is a directory; give the trace files in it (*.jsonl)")
        ) {
            try TraceValidator().validate(file: file.folder)
        }
    }

    @Test func anEmptyFileIsNotATrace() throws {
        let file = try ValidationTemporaryFile([])
        let report = try TraceValidator().validate(file: file.path)
        #expect(report.problems.map(Found.init) == [Found(.notATrace, line: 1)])
    }

    @Test func theProblemListIsCappedButEveryProblemIsCounted() {
        let lines = [T.header] + (1...50).map { T.register($0 * 2) }
        let report = T.validate(lines, strictness: TraceValidator(maximumProblems: 10))
        #expect(report.problems.count == 10)
        #expect(report.omitted == 40)
        #expect(report.errors == 50)
        #expect(report.problems.last?.line == 11)
    }

    @Test func aSpecFileGivesMachinesByStore() throws {
        let spec =
            #"{"machines":{"CatalogStore":{"initial":"idle","transitions":{"idle":["loaded"],"loaded":[]}}},"comment":"pinned"}"#
        let file = try ValidationTemporaryFile(Array(spec.utf8), name: "machines.json")
        let machines = try SpecFile.machines(at: file.path)
        #expect(machines["CatalogStore"]?.allows(from: "idle", to: "loaded") == true)
        let problems = T.problems(
            [T.header, T.register(1), T.transition(2, "idle", "loaded"), T.transition(3, "loaded", "loading")],
            machines: machines)
        #expect(problems == [Found(.unknownCase, line: 4, seq: 3, store: "CatalogStore")])
    }

    @Test(arguments: [
        ("{", "not JSON (line 1, column 2"),
        (#"{"stores":{}}"#, #"expected an object {"machines": {STORE:"#),
        (
            #"{"machines":{"A":{"initial":"x","transitions":{}}}}"#,
            #"machine "A": initial case "x" is not a key of "transitions""#
        ),
    ])
    func aBadSpecFileSaysWhatIsWrong(text: String, message: String) throws {
        let file = try ValidationTemporaryFile(Array(text.utf8), name: "machines.json")
        do {
            _ = try SpecFile.machines(at: file.path)
            Issue.record("accepted")
        } catch {
            #expect(error.path == file.path)
            #expect(error.message.contains(message), "\(error.message)")
        }
        #expect(throws: ValidationFileError.self) { try SpecFile.machines(at: file.folder + "/missing.json") }
    }
}

extension TraceValidator {
    static func with(maximumLineLength: Int) -> TraceValidator {
        var validator = TraceValidator()
        validator.maximumLineLength = maximumLineLength
        return validator
    }
}
