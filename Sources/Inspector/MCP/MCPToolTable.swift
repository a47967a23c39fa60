/// Every tool the MCP server offers, in the order `tools/list` lists them.
enum MCPToolTable {
    static let tools: [MCPTool] = TraceTools.all + EventTools.all + StateTools.all + RunTools.all

    /// The tool named `name`.
    static func tool(named name: String) -> MCPTool? {
        tools.first { $0.name == name }
    }
}
