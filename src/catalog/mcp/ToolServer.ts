// Builds one MCP server (the SDK's McpServer) from our tool and resource definitions. The stateless
// endpoint asks for one per request and era (McpHandler.ts): everything that can be is built once, in
// the definitions (schemas, their JSON Schema, annotations, resource lists), so a server costs its
// registrations only. What a server offers depends on its client only where the client declared the
// MCP Apps extension: then the tools name their views and the views are resources too.

import { EXTENSION_ID } from "@modelcontextprotocol/ext-apps/server"
import {
  type CacheHint,
  McpServer,
  type ReadResourceResult,
  type Resource,
  type ScopeChallengeHandler
} from "@modelcontextprotocol/server"
import type { ClientFeatures } from "./AppsExtension.js"
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
  /** The tools' MCP Apps views (`ui://` resources), offered to clients that declare the extension. */
  readonly views?: ReadonlyArray<McpResource>
  /**
   * How long clients may reuse the lists, `resources/read` and `server/discover` (the 2026-07-28
   * revision's `ttlMs`/`cacheScope`; earlier revisions have no such fields).
   */
  readonly cacheHint: CacheHint
  /** For a protected server: what grant each tool needs (see McpTool's `register`). */
  readonly scopeChallenge?: (tool: string) => ScopeChallengeHandler
}

/** The MCP Apps extension, as a server declares it beside its capabilities (no settings of its own). */
const appsExtension = { [EXTENSION_ID]: {} }

/**
 * A factory of servers sharing the definitions computed once; each server hands its tools the
 * `context` it was built with, and offers the views when its client shows them.
 */
export const makeToolServerFactory = <Context = void>(
  options: ToolServerOptions<Context>
): ((context: Context, client: ClientFeatures) => McpServer) => {
  const info = { name: options.name, title: options.title, version: options.version }
  /** What a server offers: its capabilities (and `extensions` beside them) and the resources it registers. */
  const offerOf = (resources: ReadonlyArray<McpResource>, extensions?: typeof appsExtension) => ({
    options: {
      // The lists change only with the snapshot, which a running server never swaps: nothing to announce.
      capabilities: {
        tools: { listChanged: false },
        ...(resources.length === 0 ? {} : { resources: { listChanged: false } }),
        ...(extensions === undefined ? {} : { extensions })
      },
      instructions: options.instructions,
      cacheHints: {
        "tools/list": options.cacheHint,
        "resources/list": options.cacheHint,
        "resources/read": options.cacheHint,
        "server/discover": options.cacheHint
      }
    },
    resources
  })
  const resources = options.resources ?? []
  const views = options.views ?? []
  const plain = offerOf(resources)
  const withViews = views.length === 0 ? plain : offerOf([...resources, ...views], appsExtension)
  return (context, client) => {
    const offer = client.apps ? withViews : plain
    const server = new McpServer(info, offer.options)
    for (const tool of options.tools) {
      const scopeChallenge = options.scopeChallenge?.(tool.name)
      tool.register(server, context, {
        withView: offer !== plain,
        ...(scopeChallenge === undefined ? {} : { scopeChallenge })
      })
    }
    for (const { resource, contents } of offer.resources) {
      const { uri, name, ...metadata } = resource
      server.registerResource(name, uri, metadata, () => contents)
    }
    return server
  }
}
