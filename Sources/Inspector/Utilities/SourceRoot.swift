import CommandLineArguments
@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) internal import ToolSupport

/// A line of a Swift file in the repository: its path (relative to the current directory when
/// the source root is, as GitHub's annotations want it) and its 1-based line.
struct SwiftLine: Equatable, Sendable {
    var path: String
    var line: Int
}

/// The folder where `inspector` finds the Swift files a trace names (`--source-root DIR`, the
/// current directory by default): a transition's `source` (`Module/File.swift:LINE`, from
/// Swift's `#fileID`, or an older `File.swift:LINE`) and the files of its `stack` frames.
///
/// The folder's `*.swift` files are listed once, when first asked; hidden folders (`.build`,
/// `.git`) and links to folders are left out, so a build folder's copies never match.
final class SourceRoot: Sendable {
    /// The folder as given.
    let path: String
    /// The `*.swift` files under the root, once listed: paths relative to it, split into their
    /// components, and their names (`Shop.swift`), for the frames of a stack. Guarded by a
    /// `Lock`: a step view's session may be read on another thread than the one that made it.
    private let listing = Lock<(files: [[Substring]], names: Set<Substring>)?>(nil)

    /// The listing, made the first time.
    private var listed: (files: [[Substring]], names: Set<Substring>) {
        listing.withLock { listing in
            if let listing { return listing }
            let files = Self.swiftFiles(under: path)
            let made = (files, Set(files.compactMap(\.last)))
            listing = made
            return made
        }
    }

    private var files: [[Substring]] { listed.files }

    /// The most files listed and folders read, and the longest the listing takes: a source root
    /// given by mistake (`/`, or a home folder where `step` was started) stops there, with what
    /// it found so far, rather than hold up the command. A repository's sources take a few ms.
    static let maximumFiles = 100_000
    static let maximumFolders = 10_000
    static let maximumListingNanoseconds: UInt64 = 300_000_000

    init(path: String = ".") {
        self.path = path
    }

    /// The root of `--source-root DIR` (the current directory without it); a `DIR` that is not
    /// a folder is a usage error.
    static func option(_ arguments: inout Arguments) throws(UsageError) -> SourceRoot {
        guard let path = try arguments.option("--source-root") else { return SourceRoot() }
        guard (try? SystemCalls.status(ofPath: path))?.kind == .directory else {
            throw UsageError(
                "--source-root \(path): not a folder; give the folder the app's Swift files are under (the repository's root)"
            )
        }
        return SourceRoot(path: path)
    }

    /// Whether any Swift file was found under the root.
    var isEmpty: Bool { files.isEmpty }

    /// Where a `source` is in the repository, or nil when it names no single file under the
    /// root. `Module/File.swift:LINE` is the file named `File.swift` in a folder named `Module`
    /// (`Sources/Module/…/File.swift` first, then any `…/Module/…/File.swift`); `File.swift:LINE`
    /// is the one file of that name.
    func locate(_ source: String) -> SwiftLine? {
        guard let (file, line) = Self.fileAndLine(source) else { return nil }
        let parts = file.split(separator: "/")
        guard let name = parts.last else { return nil }
        let named = files.filter { $0.last == name }
        let found: [Substring]?
        if parts.count == 1 {
            found = named.count == 1 ? named[0] : nil
        } else {
            let module = parts[0]
            let inModule = named.filter { $0.dropLast().contains(module) }
            let underSources = inModule.filter { components in
                zip(components, components.dropFirst()).contains { $0 == "Sources" && $1 == module }
            }
            found =
                underSources.count == 1
                ? underSources[0] : underSources.isEmpty && inModule.count == 1 ? inModule[0] : nil
        }
        guard let found else { return nil }
        return SwiftLine(path: fullPath(found.joined(separator: "/")), line: line)
    }

    /// The line that declares the state machine of `store` whose cases are `cases`: a type that
    /// conforms to `StateMachine` (`enum CatalogState: StateMachine, …`) in a file that names
    /// every case; of several, the one whose type or file name starts as the store's does
    /// (`Catalog` of `CatalogStore`). Nil when none, or no single one, is found.
    func declaration(ofMachineOf store: String, cases: [String]) -> SwiftLine? {
        var found: [(path: String, line: Int, type: String)] = []
        for components in files {
            let relative = components.joined(separator: "/")
            guard let text = Self.contents(of: fullPath(relative)), text.contains("StateMachine") else { continue }
            let words = Self.words(of: text)
            guard cases.allSatisfy({ words.contains(Substring($0)) }) else { continue }
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if let type = Self.stateMachineType(declaredBy: line) {
                    found.append((fullPath(relative), number + 1, type))
                }
            }
        }
        // Of several, narrowed step by step (a step that would leave none is skipped): not a
        // test's, then in a file named as the store, then a type named as the store.
        let stem = store.hasSuffix("Store") && store.count > 5 ? String(store.dropLast(5)) : store
        let preferences: [((path: String, line: Int, type: String)) -> Bool] = [
            { !$0.path.split(separator: "/").contains { $0.hasSuffix("Tests") || $0 == "TestSupport" } },
            { ($0.path.split(separator: "/").last ?? "").hasPrefix(stem) },
            { $0.type.hasPrefix(stem) },
        ]
        for preferred in preferences where found.count > 1 {
            let narrowed = found.filter(preferred)
            if !narrowed.isEmpty { found = narrowed }
        }
        guard found.count == 1 else { return nil }
        return SwiftLine(path: found[0].path, line: found[0].line)
    }

    /// `CatalogState` for a line `enum CatalogState: StateMachine, Equatable {`; nil for a line
    /// that declares no type conforming to `StateMachine`.
    static func stateMachineType(declaredBy line: Substring) -> String? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let first = words.first, !first.hasPrefix("//"),
            let keyword = words.firstIndex(where: { ["enum", "struct", "class", "extension"].contains($0) }),
            keyword + 1 < words.count
        else { return nil }
        let conformances = words[(keyword + 1)...].joined(separator: " ")
        guard let colon = conformances.firstIndex(of: ":") else { return nil }
        let listed = conformances[conformances.index(after: colon)...].split(whereSeparator: { ", {".contains($0) })
        guard listed.contains(where: { $0 == "StateMachine" || $0.hasSuffix(".StateMachine") }) else { return nil }
        let name = conformances[..<colon].prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
        return name.isEmpty ? nil : String(name)
    }

    /// The identifiers of Swift text.
    private static func words(of text: String) -> Set<Substring> {
        Set(text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }))
    }

    /// The text of a file, or nil when it cannot be read or is larger than a source file is.
    private static func contents(of path: String) -> String? {
        guard let file = try? FileDescriptor.open(path, .readOnly), let size = try? file.status().size,
            size < 4 << 20
        else { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { try? file.read(into: $0) } ?? 0
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether a file of this name (`Shop.swift`) is under the root.
    func containsFile(named name: Substring) -> Bool {
        listed.names.contains(name)
    }

    /// The Swift files under the root, as paths a person can open (see `fullPath`).
    var swiftFiles: [String] {
        files.map { fullPath($0.joined(separator: "/")) }
    }

    /// `relative` under the root: as it is when the root is the current directory.
    func fullPath(_ relative: String) -> String {
        var root = Substring(path)
        while root.count > 1 && root.hasSuffix("/") { root = root.dropLast() }
        if root == "." || root == "./" || root.isEmpty { return relative }
        return root == "/" ? "/" + relative : "\(root)/\(relative)"
    }

    /// `Module/File.swift:31` → (`Module/File.swift`, 31); nil without a positive line.
    static func fileAndLine(_ source: String) -> (file: Substring, line: Int)? {
        guard let colon = source.lastIndex(of: ":"), let line = Int(source[source.index(after: colon)...]), line > 0
        else { return nil }
        let file = source[..<colon]
        return file.isEmpty ? nil : (file, line)
    }

    /// The `*.swift` files under `root`, relative to it.
    private static func swiftFiles(under root: String) -> [[Substring]] {
        var found: [[Substring]] = []
        var folders: [(path: String, components: [Substring])] = [(root, [])]
        var read = 0
        let deadline = monotonicNanoseconds() + maximumListingNanoseconds
        while let (folder, components) = folders.popLast(), found.count < maximumFiles, read < maximumFolders,
            read % 64 != 0 || monotonicNanoseconds() < deadline
        {
            read += 1
            guard let entries = try? SystemCalls.directoryEntries(folder) else { continue }
            for name in entries.sorted() where !name.hasPrefix(".") && name != "node_modules" {
                let full = folder.hasSuffix("/") ? folder + name : folder + "/" + name
                if name.hasSuffix(".swift") {
                    found.append(components + [Substring(name)])
                } else if components.count < 32,
                    (try? SystemCalls.status(ofPath: full, followingLinks: false))?.kind == .directory
                {
                    folders.append((full, components + [Substring(name)]))
                }
            }
        }
        return found
    }
}
