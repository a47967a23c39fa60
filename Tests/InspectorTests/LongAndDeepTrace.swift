import Foundation
import Recorder
import TestSupport

/// A recorded trace with a long string and a deep state, for the step view's long and deep
/// values (issue 20, item 3):
///
///     seq 1  register NotesStore   text: 50 words, about 340 characters
///     seq 2  register DeepStore    60 levels of { depth, next }, the last with a note "start"
///     seq 3  NotesStore.edit       the 25th word of the text changed, in its middle
///     seq 4  DeepStore.touch       the note 60 levels down becomes "deep change"
final class LongAndDeepTrace {
    /// One level of the deep state: its depth, and the next level or, at the bottom, a note.
    final class Level: Encodable, Equatable, Sendable {
        let depth: Int
        let next: Level?
        let note: String?

        init(depth: Int, levels: Int, note: String) {
            self.depth = depth
            self.next = depth < levels ? Level(depth: depth + 1, levels: levels, note: note) : nil
            self.note = depth < levels ? nil : note
        }

        static func == (left: Level, right: Level) -> Bool {
            left.depth == right.depth && left.note == right.note && left.next == right.next
        }
    }

    static let levels = 60
    static let text = (1...50).map { "word\($0)" }.joined(separator: " ")
    static let editedText = text.replacingOccurrences(of: " word25 ", with: " WORD-TWENTY-FIVE ")

    let folder: TemporaryFolder
    let path: String

    init() throws {
        folder = try TemporaryFolder()
        path = folder.path("long-and-deep.jsonl")
        let recorder = try TraceRecorder(path: path, app: "Notes", machines: [:])
        let notes = Store(initialState: ["text": Self.text], name: "NotesStore", recorder: recorder)
        let deep = Store(
            initialState: Level(depth: 1, levels: Self.levels, note: "start"), name: "DeepStore", recorder: recorder)
        notes.send("edit") { $0["text"] = Self.editedText }
        deep.send("touch") { $0 = Level(depth: 1, levels: Self.levels, note: "deep change") }
    }
}
