// The whole service (catalog over the fixture podcast, foundation on a fresh database) for the agent
// session's tests, and the agent's side: OAuth tokens for `/mcp/agent` obtained through the code flow
// (oauth4webapi, the person played with fetch), and the official MCP SDK clients calling the tools.
import { request as httpRequest } from "node:http"
import type { ClientCapabilities } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import type * as Scope from "effect/Scope"
import { ServerAddress } from "../../../src/http/NodeServer.js"
import { freshDataDir, freshPostgresDatabase } from "../../foundation/support/Backends.js"
import {
  type Account,
  logLines,
  PUBLIC_ORIGIN,
  TestDatabaseUrl
} from "../../foundation/support/FoundationClient.js"
import { codeFlow, type OAuthWorld, registerPublic } from "../../foundation/support/OAuthFlow.js"
import { buildFixtureSnapshot } from "../../support/CatalogTestServer.js"
import { type ClientKind, type McpSession, mcpSession } from "../../support/McpClients.js"
import { testServer } from "../../support/TestServer.js"

export { textOf } from "../../support/McpClients.js"

export const AGENT_RESOURCE = `${PUBLIC_ORIGIN}/mcp/agent`
export const AGENT_METADATA = `${PUBLIC_ORIGIN}/.well-known/oauth-protected-resource/mcp/agent`

/** The service's log, kept where the foundation's helpers look for the outbox's messages. */
const capturingLogger = Logger.make(({ message }) => {
  const parts = Array.isArray(message) ? message : [message]
  logLines.push(parts.map((part) => (typeof part === "string" ? part : JSON.stringify(part))).join(" "))
})

/** The service with both features, on the database `database` selects, with `env` on top. */
export const agentServer = (
  database: Effect.Effect<Record<string, string>, never, Scope.Scope>,
  env: Record<string, string> = {}
) =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      const catalogDir = yield* Effect.orDie(buildFixtureSnapshot())
      const databaseEnv = yield* database
      return testServer({
        CATALOG_DIR: catalogDir,
        PUBLIC_ORIGIN,
        OUTBOX_POLL_MS: "50",
        // Every grant of these tests is a new client of its own, registered from the one loopback address.
        OAUTH_REGISTRATION_RATE_LIMIT: "1000",
        ...databaseEnv,
        ...env
      })
    })
  ).pipe(Layer.provide(Logger.replace(Logger.defaultLogger, capturingLogger)))

/**
 * The same on a fresh PGlite database, listening on `port` of loopback with that address as its
 * PUBLIC_ORIGIN, for tests whose browser or SDK client must reach the authorization server where its
 * metadata says (the SDK refuses a token endpoint on plain http anywhere but loopback).
 */
export const ownOriginAgentServer = (port: number, env: Record<string, string> = {}) =>
  agentServer(
    Effect.map(freshDataDir, (dir) => ({ DATA_DIR: dir })),
    { PORT: String(port), PUBLIC_ORIGIN: `http://127.0.0.1:${port}`, ...env }
  )

/** The same on a fresh PostgreSQL database, with its URL for direct inspection. */
export const postgresAgentServer = (env: Record<string, string> = {}) =>
  Layer.unwrapScoped(
    Effect.map(freshPostgresDatabase, ({ url }) =>
      Layer.merge(
        agentServer(Effect.succeed({ DATABASE_URL: url }), env),
        Layer.succeed(TestDatabaseUrl, url)
      )
    )
  )

export interface AgentGrant {
  readonly accessToken: string
  readonly refreshToken: string | undefined
  readonly clientId: string
}

/** A token for /mcp/agent: a new public client, `person` approves `organizationId` with `scope`. */
export const agentToken = (world: OAuthWorld, person: Account, organizationId: string, scope: string) =>
  Effect.gen(function* () {
    const client = yield* registerPublic(world, "Notebook agent")
    const tokens = yield* codeFlow(world, person, {
      client,
      organizationId,
      extra: { resource: AGENT_RESOURCE, scope }
    })
    return {
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
      clientId: client.client_id
    }
  })

/**
 * An MCP SDK client connected to /mcp/agent with a bearer token (the v2 client pinned to 2026-07-28
 * unless told otherwise), declaring `capabilities` beyond its defaults, closed with the scope.
 */
export const mcpClient = (
  accessToken: string,
  kind: ClientKind = "v2 client, 2026-07-28",
  capabilities?: ClientCapabilities
) =>
  Effect.flatMap(ServerAddress, (address) =>
    mcpSession(kind, new URL(`${address.url}/mcp/agent`), {
      headers: { authorization: `Bearer ${accessToken}` },
      ...(capabilities === undefined ? {} : { capabilities })
    })
  )

/** Calls a tool and returns its result as the SDK hands it back. */
export const callTool = (session: McpSession, name: string, args: Record<string, unknown> = {}) =>
  Effect.promise(() => session.callTool(name, args))

/**
 * A raw request to /mcp/agent through node:http (fetch will not send a Host or Origin of our
 * choosing), a JSON-RPC tools/list POST unless told otherwise.
 */
export const rawMcp = (
  headers: Record<string, string>,
  options: { readonly method?: string; readonly body?: unknown } = {}
) =>
  Effect.flatMap(ServerAddress, (address) =>
    Effect.promise(
      () =>
        new Promise<{ status: number; headers: Headers; text: string }>((resolve, reject) => {
          const body =
            options.method === "GET"
              ? undefined
              : JSON.stringify(options.body ?? { jsonrpc: "2.0", id: 1, method: "tools/list" })
          const req = httpRequest(
            {
              host: address.host,
              port: address.port,
              path: "/mcp/agent",
              method: options.method ?? "POST",
              headers: {
                "content-type": "application/json",
                accept: "application/json, text/event-stream",
                ...headers
              }
            },
            (res) => {
              const chunks: Array<Buffer> = []
              res.on("data", (chunk: Buffer) => chunks.push(chunk))
              res.on("end", () => {
                const answer = new Headers()
                for (const [name, value] of Object.entries(res.headers)) {
                  if (typeof value === "string") answer.set(name, value)
                }
                resolve({
                  status: res.statusCode ?? 0,
                  headers: answer,
                  text: Buffer.concat(chunks).toString()
                })
              })
            }
          )
          req.on("error", reject)
          req.end(body)
        })
    )
  )
