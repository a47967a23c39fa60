import Foundation

/// The package's root folder (where Package.swift is), found from this file's place in it, for
/// tests that read the repository's own files: README.md, traces/, the DocC catalogs, Fuzz/.
public let packageRoot = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
