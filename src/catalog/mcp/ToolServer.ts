// Builds one MCP server (the SDK's McpServer) from our tool and resource definitions. The stateless
// endpoint asks for one per request and era (McpHandler.ts): everything that can be is built once, in
// the definitions (schemas, their JSON Schema, annotations, resource lists), so a server costs its
// registrations only.
import {
  type CacheHint,
  McpServer,
  type ReadResourceResult,
  type Resource,
  type ScopeChallengeHandler
} from "@modelcontextprotocol/server"
import type { McpTool } from "./McpTool.js"

/** A resource the server lists and reads; its contents come from the snapshot and are built once. */
export interface McpResource {
  readonly resource: Resource
  readonly contents: ReadResourceResult
}

export interface ToolServerOptions<Context = void> {
  readonly name: string
  readonly title: string
  readonly version: string
  /** Shown to the model by clients that pass server instructions on. */
  readonly instructions: string
  readonly tools: ReadonlyArray<McpTool<Context>>
  readonly resources?: ReadonlyArray<McpResource>
  /**
   * How long clients may reuse the lists, `resources/read` and `server/discover` (the 2026-07-28
   * revision's `ttlMs`/`cacheScope`; earlier revisions have no such fields).
   */
  readonly cacheHint: CacheHint
  /** For a protected server: what grant each tool needs (see McpTool's `register`). */
  readonly scopeChallenge?: (tool: string) => ScopeChallengeHandler
}

/**
 * A factory of servers sharing the definitions computed once; each server hands its tools the
 * `context` it was built with.
 */
export const makeToolServerFactory = <Context = void>(
  options: ToolServerOptions<Context>
): ((context: Context) => McpServer) => {
  const resources = options.resources ?? []
  const info = { name: options.name, title: options.title, version: options.version }
  const serverOptions = {
    // The lists change only with the snapshot, which a running server never swaps: nothing to announce.
    capabilities:
      resources.length === 0
        ? { tools: { listChanged: false } }
        : { tools: { listChanged: false }, resources: { listChanged: false } },
    instructions: options.instructions,
    cacheHints: {
      "tools/list": options.cacheHint,
      "resources/list": options.cacheHint,
      "resources/read": options.cacheHint,
      "server/discover": options.cacheHint
    }
  }
  return (context) => {
    const server = new McpServer(info, serverOptions)
    for (const tool of options.tools) tool.register(server, context, options.scopeChallenge?.(tool.name))
    for (const { resource, contents } of resources) {
      const { uri, name, ...metadata } = resource
      server.registerResource(name, uri, metadata, () => contents)
    }
    return server
  }
}
