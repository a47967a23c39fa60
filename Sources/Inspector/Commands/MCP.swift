import CommandLineArguments
@_spi(RewindInternals) internal import RewindSupport

/// `inspector mcp [--allow DIR]... [--source-root DIR]`: a Model Context Protocol server on standard input and
/// output, for coding agents. The server is `MCPServer` (Sources/Inspector/MCP).
enum MCP: Command {
    static let name = "mcp"
    static let summary = "answer a coding agent's questions about traces (an MCP server on stdin/stdout)"
    static let help = """
        Usage: inspector mcp [--allow DIR]... [--source-root DIR]

        Runs a Model Context Protocol server on standard input and output, for coding agents:
        one JSON-RPC 2.0 message per line in, one answer per line out. It answers initialize,
        server/discover, ping, tools/list and tools/call; the end of its input ends it. Register
        it with an agent as a command, 'inspector mcp' (README, "The inspector for coding
        agents").

        Protocol revisions: \(MCPServer.protocolVersion) (server/discover, then the revision in each
        request's _meta), and through initialize \(MCPServer.handshakeVersions.reversed().joined(separator: ", ")).
        initialize answers the revision the client asks for when it is one of those, otherwise
        \(MCPServer.handshakeVersions.last ?? ""), the latest that has initialize; a request whose _meta names
        another revision gets error -32022 with the supported ones.

        Tools: open_trace, summary, problems, events, state, diff, when, why, compare, coverage
        (tools/list gives each one's JSON Schema). A trace is opened and indexed once, then each
        question reads only the lines it needs.

        Limits: a message is at most \(MCPMessageReader.defaultLimit >> 20) MiB (a longer one is skipped and answered with
        an error); an answer's structured result is at most \(AnswerBounds.answerBytes >> 10) KiB of JSON (the text
        content repeats it): lists are paged (offset/nextOffset, from/nextFrom,
        after/nextAfter) and a large value comes back folded with the paths to ask for next;
        a long string comes back a piece at a time (state's offset and length, in bytes).
        Strings are escaped as the other commands' JSON escapes them; redacted values stay as
        the trace holds them. At most \(MCPSession.openLimit) traces stay open at once.

        Files: only regular files under the current directory, or under the folders named
        with --allow (then not the current directory unless named too). Paths are resolved
        (symbolic links, '..') before they are checked, so no link leads out.

        Sources: an event's or a problem's source (Module/File.swift:LINE) comes with
        sourceFile, the Swift file's path found under --source-root, and sourceLine, as
        'inspector validate --format json --source-root' gives them.

        Errors are JSON-RPC errors with a message that says what to send instead (-32700 not
        JSON, -32600 not a request, -32601 unknown method, -32602 wrong params or arguments);
        a tool that cannot answer returns isError with the reason. What an error repeats of the
        request (a method, a name, a path) is at most \(MCPExcerpt.scalars) characters, quoted and escaped,
        then its size ("… (N bytes)"). No message stops the server.

        Options:
          --allow DIR         let the server read trace files under DIR (repeatable)
          --source-root DIR   where the app's Swift files are (default: the current
                              directory, as for validate)

        Exit status:
          0  the input ended
          2  the command line is wrong (a --allow or --source-root folder that does not exist)
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let folders = try arguments.options("--allow")
        let sourceRoot = try SourceRoot.option(&arguments)
        try arguments.finish()
        let access: MCPFileAccess
        do {
            access = try MCPFileAccess(folders: folders.isEmpty ? ["."] : folders)
        } catch {
            throw UsageError(error.message)
        }
        let server = MCPServer(session: MCPSession(access: access, sourceRoot: sourceRoot))
        var reader = MCPMessageReader(descriptor: 0)
        while let message = reader.next() {
            guard let answer = server.handle(message) else { continue }
            console.out.line(answer)
            console.out.flush()
        }
        return ExitStatus.success
    }
}
