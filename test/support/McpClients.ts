// The official MCP clients our servers must serve, behind one small interface: the v1 SDK client
// (what most agents run today: the 2025-11-25 handshake), the v2 SDK client with its defaults (also
// the 2025-11-25 handshake) and the v2 client pinned to 2026-07-28 (stateless, `server/discover`).

import {
  type CallToolResult,
  Client,
  type ClientCapabilities,
  type ReadResourceResult,
  type Resource,
  type ServerCapabilities,
  StreamableHTTPClientTransport,
  type Tool
} from "@modelcontextprotocol/client"
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server"
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import * as Effect from "effect/Effect"

/** Which client, and so which protocol revision, a session speaks. */
export type ClientKind = "v1 client" | "v2 client, defaults" | "v2 client, 2026-07-28"

export const clientKinds: ReadonlyArray<ClientKind> = [
  "v1 client",
  "v2 client, defaults",
  "v2 client, 2026-07-28"
]

/** The revision each kind ends up speaking with our servers. */
export const revisionOf: Record<ClientKind, string> = {
  "v1 client": "2025-11-25",
  "v2 client, defaults": "2025-11-25",
  "v2 client, 2026-07-28": "2026-07-28"
}

export interface McpSession {
  readonly kind: ClientKind
  readonly protocolVersion: string | undefined
  readonly serverName: string | undefined
  /** What the server declared (in `initialize` or `server/discover`). */
  readonly serverCapabilities: ServerCapabilities | undefined
  readonly listTools: () => Promise<ReadonlyArray<Tool>>
  readonly callTool: (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>
  readonly listResources: () => Promise<ReadonlyArray<Resource>>
  readonly readResource: (uri: string) => Promise<ReadResourceResult>
  readonly close: () => Promise<void>
}

export interface ConnectOptions {
  /** Headers sent with every request (Origin, Authorization…). */
  readonly headers?: Record<string, string>
  /** What the client declares beyond its defaults (the v2 clients only), e.g. the MCP Apps extension. */
  readonly capabilities?: ClientCapabilities
}

/** What a host that shows MCP Apps views declares (the `io.modelcontextprotocol/ui` extension). */
export const appsCapabilities: ClientCapabilities = {
  extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } }
}

const clientInfo = { name: "catalog-test", version: "1.0.0" }

/** A connected session of `kind` on `url`. */
export const openSession = async (
  kind: ClientKind,
  url: URL,
  options: ConnectOptions = {}
): Promise<McpSession> => {
  const requestInit = options.headers === undefined ? {} : { requestInit: { headers: options.headers } }
  if (kind === "v1 client") {
    if (options.capabilities !== undefined) throw new Error("the v1 client declares no extensions")
    const transport = new V1Transport(url, requestInit)
    const client = new V1Client(clientInfo)
    await client.connect(transport)
    return {
      kind,
      protocolVersion: transport.protocolVersion,
      serverName: client.getServerVersion()?.name,
      serverCapabilities: client.getServerCapabilities() as ServerCapabilities | undefined,
      // The two SDKs' result types are the same wire shapes, declared twice.
      listTools: async () => (await client.listTools()).tools as unknown as ReadonlyArray<Tool>,
      callTool: async (name, args = {}) =>
        (await client.callTool({ name, arguments: args })) as unknown as CallToolResult,
      listResources: async () =>
        (await client.listResources()).resources as unknown as ReadonlyArray<Resource>,
      readResource: async (uri) => (await client.readResource({ uri })) as unknown as ReadResourceResult,
      close: () => client.close()
    }
  }
  const client = new Client(clientInfo, {
    ...(kind === "v2 client, 2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
    ...(options.capabilities === undefined ? {} : { capabilities: options.capabilities })
  })
  await client.connect(new StreamableHTTPClientTransport(url, requestInit))
  return {
    kind,
    protocolVersion: client.getNegotiatedProtocolVersion(),
    serverName: client.getServerVersion()?.name,
    serverCapabilities: client.getServerCapabilities(),
    listTools: async () => (await client.listTools()).tools,
    callTool: (name, args = {}) => client.callTool({ name, arguments: args }),
    listResources: async () => (await client.listResources()).resources,
    readResource: (uri) => client.readResource({ uri }),
    close: () => client.close()
  }
}

/** A session closed with the test's scope. */
export const mcpSession = (kind: ClientKind, url: URL, options: ConnectOptions = {}) =>
  Effect.acquireRelease(
    Effect.promise(() => openSession(kind, url, options)),
    (session) => Effect.promise(() => session.close())
  )

/** The text of a tool result's first block. */
export const textOf = (result: CallToolResult): string => {
  const [first] = result.content
  return first?.type === "text" ? first.text : ""
}
