import Dispatch
import Testing

@testable import TraceReader

/// `ParallelFiles` runs the work of many files a few at a time: the results must come in the
/// order of the files whatever order the work ends in, an error stays with its file, the
/// progress the work reports reaches the calling thread, and a file's own `concurrentPerform`
/// still runs on several cores.
@Suite struct ParallelFilesTests {
    /// How long a test waits for an event before it gives up (a hang guard, not a timing).
    static var patience: DispatchTime { .now() + .seconds(30) }

    struct Failure: Error, Equatable {
        var path: String
    }

    @Test(arguments: [0, 1, 2, 7, 100])
    func resultsComeInTheOrderOfTheFiles(count: Int) {
        let paths = (0..<count).map { "trace-\($0).jsonl" }
        let results = ParallelFiles.map(paths, width: 3) { path throws(Failure) in
            guard !path.hasSuffix("3.jsonl") else { throw Failure(path: path) }
            return path.uppercased()
        }
        #expect(results.count == count)
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let value):
                #expect(!paths[index].hasSuffix("3.jsonl"))
                #expect(value == paths[index].uppercased())
            case .failure(let error):
                #expect(error == Failure(path: paths[index]))
            }
        }
    }

    @Test func zeroFilesDeliverNothing() {
        var delivered = 0
        ParallelFiles.forEach(count: 0) { index, _ in
            index
        } deliver: { _, _ in
            delivered += 1
        }
        #expect(delivered == 0)
    }

    @Test func aLaterFileDoneFirstWaitsForTheOnesBefore() {
        guard ParallelFiles.cores >= 2 else { return }
        // File 0 ends only after file 1 has ended: file 1's result is held until file 0's.
        let secondDone = DispatchSemaphore(value: 0)
        var delivered: [(index: Int, value: String)] = []
        ParallelFiles.forEach(count: 3, width: 2) { index, _ in
            if index == 1 { secondDone.signal() }
            guard index == 0 else { return "file \(index)" }
            return secondDone.wait(timeout: Self.patience) == .success ? "file 0, after file 1" : "file 0"
        } deliver: { index, value in
            delivered.append((index, value))
        }
        #expect(delivered.map(\.index) == [0, 1, 2])
        #expect(delivered.map(\.value) == ["file 0, after file 1", "file 1", "file 2"])
    }

    @Test func progressReportedByAFileReachesTheCallingThread() {
        let seen = DispatchSemaphore(value: 0)
        var reports: [(read: Int, total: Int)] = []
        var delivered = 0
        ParallelFiles.forEach(count: 2, width: 2) { index, progress in
            guard index == 0 else { return index }
            progress.report(read: 50, total: 200)
            // Ends only once the calling thread has shown it: the progress is seen while waiting.
            _ = seen.wait(timeout: Self.patience)
            return index
        } progress: { read, total in
            reports.append((read, total))
            if read == 50 && total == 200 { seen.signal() }
        } deliver: { _, _ in
            delivered += 1
        }
        #expect(delivered == 2)
        #expect(reports.contains { $0.read == 50 && $0.total == 200 })
    }
}
