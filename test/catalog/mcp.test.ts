// The MCP servers at /mcp and /mcp/docs through the official MCP SDK clients over Streamable HTTP, in
// every revision they serve: the v2 client pinned to 2026-07-28 for the tools' behaviour, and the v1
// client and v2 client with its defaults (2025-11-25) for the same lists and answers. Every tool,
// bound and error, the resources, the caching hints, the JSON-RPC errors each revision defines, the
// Host and Origin rules, the methods a stateless endpoint refuses and the rate limit.

import { readFileSync } from "node:fs"
import { request as httpRequest } from "node:http"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import {
  type CallToolResult,
  type JsonSchemaType,
  ProtocolError,
  SdkHttpError,
  type Tool
} from "@modelcontextprotocol/client"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/client/validators/ajv"
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import {
  isInitializeRequest,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS
} from "@modelcontextprotocol/sdk/types.js"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type { EpisodePage, TranscriptHitPage } from "../../src/catalog/domain/Collections.js"
import type { EpisodeDetail } from "../../src/catalog/domain/Episode.js"
import type { TranscriptDetail } from "../../src/catalog/domain/Transcript.js"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { contentDirectory, contentTestServer } from "../support/ContentTestServer.js"
import {
  type ClientKind,
  clientKinds,
  type McpSession,
  mcpSession,
  openSession,
  revisionOf,
  textOf
} from "../support/McpClients.js"
import { request } from "../support/TestServer.js"

/** A connected session on `path`, the v2 client pinned to 2026-07-28 unless told otherwise. */
const connect = (
  path: string,
  kind: ClientKind = "v2 client, 2026-07-28",
  headers?: Record<string, string>
): Effect.Effect<McpSession, never, ServerAddress | Scope.Scope> =>
  Effect.flatMap(ServerAddress, (address) =>
    mcpSession(kind, new URL(`${address.url}${path}`), headers === undefined ? {} : { headers })
  )

/**
 * The v1 client made to offer an older revision in `initialize` (it always offers its newest), as an
 * older client would.
 */
const connectV1At = (path: string, version: string) =>
  Effect.flatMap(ServerAddress, (address) =>
    Effect.acquireRelease(
      Effect.promise(async () => {
        const transport = new V1Transport(new URL(`${address.url}${path}`))
        const send = transport.send.bind(transport)
        transport.send = (message, sendOptions) =>
          send(
            isInitializeRequest(message)
              ? { ...message, params: { ...message.params, protocolVersion: version } }
              : message,
            sendOptions
          )
        const client = new V1Client({ name: "catalog-test", version: "1.0.0" })
        await client.connect(transport)
        return { client, transport }
      }),
      ({ client }) => Effect.promise(() => client.close())
    )
  )

/** A session opened outside any scope (for connections expected to fail). */
const openSessionFor = (kind: ClientKind, url: string, headers: Record<string, string>) =>
  openSession(kind, new URL(url), { headers })

/** Connects and lists the tools first, so the SDK validates every structuredContent against its outputSchema. */
const catalogClient = Effect.tap(connect("/mcp"), (session) => Effect.promise(() => session.listTools()))

const call = (session: McpSession, name: string, args: Record<string, unknown>) =>
  Effect.promise(() => session.callTool(name, args))

/** A successful call: text rendering present, structuredContent returned. */
const structured = <T>(result: CallToolResult): T => {
  expect(result.isError ?? false).toBe(false)
  expect(textOf(result).length).toBeGreaterThan(0)
  expect(result.structuredContent).toBeDefined()
  return result.structuredContent as T
}

/** A tool error: `isError`, a message containing `fragment`, no structured content. */
const toolError = (result: CallToolResult, fragment: string | RegExp) => {
  expect(result.isError).toBe(true)
  expect(result.structuredContent).toBeUndefined()
  expect(textOf(result)).toMatch(fragment)
}

/** What a call answered (result or protocol error), as compared across revisions. */
const outcome = (session: McpSession, name: string, args: Record<string, unknown>) =>
  Effect.promise(() =>
    session.callTool(name, args).then(
      (result) => ({
        content: result.content,
        structuredContent: result.structuredContent,
        isError: result.isError ?? false
      }),
      (error: unknown) => ({
        code: error instanceof ProtocolError ? error.code : (error as { code?: number }).code,
        message: String((error as Error).message).replace(/^MCP error -?\d+: /, "")
      })
    )
  )

interface RawResponse {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: string
}

/** A request with headers fetch cannot set (Host), via node:http. */
const raw = (
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {}
) =>
  Effect.flatMap(ServerAddress, (address) =>
    Effect.promise(
      () =>
        new Promise<RawResponse>((resolve, reject) => {
          const req = httpRequest(
            {
              host: address.host,
              port: address.port,
              path,
              method: options.method ?? "POST",
              headers: options.headers
            },
            (res) => {
              const chunks: Array<Buffer> = []
              res.on("data", (chunk: Buffer) => chunks.push(chunk))
              res.on("end", () =>
                resolve({
                  status: res.statusCode ?? 0,
                  headers: res.headers,
                  body: Buffer.concat(chunks).toString()
                })
              )
            }
          )
          req.on("error", reject)
          req.end(options.body)
        })
    )
  )

const mcpHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" }
const listToolsBody = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })

const versionKey = "io.modelcontextprotocol/protocolVersion"
const capabilitiesKey = "io.modelcontextprotocol/clientCapabilities"

/** The headers of a 2026-07-28 request: its revision, method and (for tools and resources) name. */
const modernHeaders = (method: string, name?: string): Record<string, string> => ({
  ...mcpHeaders,
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": method,
  ...(name === undefined ? {} : { "mcp-name": name })
})

/** A 2026-07-28 request: every request carries its revision and the client's capabilities in `_meta`. */
const modernBody = (id: number | string, method: string, params: Record<string, unknown> = {}) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method,
    params: { ...params, _meta: { [versionKey]: "2026-07-28", [capabilitiesKey]: {} } }
  })

const expectEnvelope = (response: RawResponse, status: number, code: string) => {
  expect(response.status).toBe(status)
  expect(JSON.parse(response.body)).toMatchObject({ defined: true, status, code })
}

const restJson = <T>(path: string) =>
  Effect.map(request(path), (response) => {
    expect(response.status).toBe(200)
    return response.json as T
  })

describe("the catalog MCP server (/mcp)", () => {
  it.layer(contentTestServer())((it) => {
    it.scoped(
      "lists four read-only tools with input and output schemas derived from the catalog's schemas",
      () =>
        Effect.gen(function* () {
          const client = yield* connect("/mcp")
          const tools = yield* Effect.promise(() => client.listTools())
          const byName = new Map(tools.map((tool) => [tool.name, tool]))
          expect([...byName.keys()].sort()).toEqual([
            "get_episode",
            "get_transcript",
            "search_episodes",
            "search_transcripts"
          ])
          for (const tool of tools) {
            expect(tool.annotations).toMatchObject({
              readOnlyHint: true,
              openWorldHint: false,
              destructiveHint: false
            })
            expect(tool.inputSchema.type).toBe("object")
            expect(tool.outputSchema?.type).toBe("object")
            expect(tool.description?.length).toBeGreaterThan(40)
          }
          const properties = (tool: Tool | undefined) =>
            tool?.inputSchema.properties as Record<string, Record<string, unknown>>
          expect(properties(byName.get("search_episodes")).limit).toMatchObject({
            type: "integer",
            minimum: 1,
            maximum: 50,
            default: 10
          })
          expect(Object.keys(properties(byName.get("search_episodes")))).toEqual([
            "query",
            "session",
            "limit",
            "cursor"
          ])
          expect(byName.get("search_episodes")?.inputSchema.required ?? []).toEqual([])
          expect(byName.get("search_transcripts")?.inputSchema.required).toEqual(["query"])
          expect(byName.get("get_episode")?.inputSchema.required).toEqual(["slug"])
          expect(properties(byName.get("get_transcript")).max_characters).toMatchObject({
            type: "integer",
            minimum: 1,
            maximum: 200000,
            default: 20000
          })
          // The output schemas are the REST shapes: the episode page's items are full episodes.
          const pageSchema = byName.get("search_episodes")?.outputSchema?.properties as Record<
            string,
            { items?: { required?: Array<string> } }
          >
          expect(pageSchema.data?.items?.required).toContain("transcriptAvailable")
          expect(byName.get("get_transcript")?.outputSchema?.required).toEqual(
            expect.arrayContaining(["text", "truncated", "totalCharacters"])
          )
        })
    )

    it.scoped("search_episodes without a query lists newest first, exactly as GET /v1/episodes", () =>
      Effect.gen(function* () {
        const client = yield* catalogClient
        const page = structured<typeof EpisodePage.Encoded>(
          yield* call(client, "search_episodes", { limit: 5 })
        )
        expect(page).toEqual(yield* restJson("/v1/episodes?limit=5"))
        expect(page.data.map((episode) => episode.slug)).toEqual(["42", "41", "40", "39", "38"])
        expect(page.nextCursor).not.toBeNull()
        const second = structured<typeof EpisodePage.Encoded>(
          yield* call(client, "search_episodes", { limit: 5, cursor: page.nextCursor })
        )
        expect(second.data[0]?.slug).toBe("37")
      })
    )

    it.scoped("search_episodes ranks by relevance, filters by session, and renders the page as text", () =>
      Effect.gen(function* () {
        const client = yield* catalogClient
        const result = yield* call(client, "search_episodes", { query: "wheat starch paste" })
        const page = structured<typeof EpisodePage.Encoded>(result)
        expect(page).toEqual(yield* restJson("/v1/episodes?q=wheat%20starch%20paste"))
        expect(page.data[0]?.slug).toBe("7")
        expect(page.data[0]?.relevance).toBeGreaterThan(0)
        expect(page.data[0]?.matchedFields).toContain("title")
        expect(textOf(result)).toContain("slug 7: Foxing, Tears and Wheat Starch Paste")
        const seasonTwo = structured<typeof EpisodePage.Encoded>(
          yield* call(client, "search_episodes", { session: 2, limit: 50 })
        )
        expect(seasonTwo.data.length).toBeGreaterThan(0)
        expect(seasonTwo.data.every((episode) => episode.session === 2)).toBe(true)
      })
    )

    it.scoped("search_episodes refuses out-of-bounds and unknown arguments with a clear tool error", () =>
      Effect.gen(function* () {
        const client = yield* catalogClient
        toolError(
          yield* call(client, "search_episodes", { limit: 0 }),
          "limit: must be an integer from 1 to 50"
        )
        toolError(
          yield* call(client, "search_episodes", { limit: 51 }),
          "limit: must be an integer from 1 to 50"
        )
        toolError(yield* call(client, "search_episodes", { limit: 2.5 }), /limit/)
        toolError(yield* call(client, "search_episodes", { limit: "3" }), /limit/)
        toolError(yield* call(client, "search_episodes", { session: 0 }), /session/)
        toolError(
          yield* call(client, "search_episodes", { query: "x".repeat(501) }),
          "query: must be at most 500 characters"
        )
        toolError(
          yield* call(client, "search_episodes", { query: "?!" }),
          "query must hold at least one word"
        )
        toolError(yield* call(client, "search_episodes", { q: "tides" }), /q/)
      })
    )

    it.scoped("a cursor that is forged, or belongs to another query, is a tool error", () =>
      Effect.gen(function* () {
        const client = yield* catalogClient
        toolError(
          yield* call(client, "search_episodes", { cursor: "not-a-cursor" }),
          "cursor is not a cursor this service issued"
        )
        const page = structured<typeof EpisodePage.Encoded>(
          yield* call(client, "search_episodes", { limit: 2 })
        )
        toolError(
          yield* call(client, "search_episodes", { query: "maps", cursor: page.nextCursor }),
          "cursor belongs to another query"
        )
        toolError(yield* call(client, "search_episodes", { cursor: "c".repeat(201) }), /cursor/)
      })
    )

    it.scoped("get_episode answers the REST detail, and unknown or malformed slugs are tool errors", () =>
      Effect.gen(function* () {
        const client = yield* catalogClient
        const result = yield* call(client, "get_episode", { slug: "7" })
        expect(structured<typeof EpisodeDetail.Encoded>(result)).toEqual(yield* restJson("/v1/episodes/7"))
        expect(textOf(result)).toContain("# Foxing, Tears and Wheat Starch Paste")
        expect(textOf(result)).toContain("Prudence Ashworth (guest)")
        const bonus = structured<typeof EpisodeDetail.Encoded>(
          yield* call(client, "get_episode", { slug: "-1" })
        )
        expect(bonus.data.slug).toBe("-1")
        toolError(yield* call(client, "get_episode", { slug: "999" }), 'No episode has the slug "999".')
        toolError(yield* call(client, "get_episode", { slug: "seven" }), /slug/)
        toolError(yield* call(client, "get_episode", {}), /slug/)
        // The number itself, as the MCP Inspector sends `slug=7`, is the same episode; a fraction is not.
        expect(structured(yield* call(client, "get_episode", { slug: 7 }))).toEqual(structured(result))
        expect(structured(yield* call(client, "get_episode", { slug: -1 }))).toEqual(bonus)
        toolError(yield* call(client, "get_episode", { slug: 7.5 }), /slug: must be an episode number/)
        const transcript = structured<{ slug: string }>(
          yield* call(client, "get_transcript", { slug: 7, max_characters: 100 })
        )
        expect(transcript.slug).toBe("7")
      })
    )

    it.scoped(
      "search_transcripts finds paragraphs as GET /v1/transcripts/search, with session and limit",
      () =>
        Effect.gen(function* () {
          const client = yield* catalogClient
          const result = yield* call(client, "search_transcripts", { query: "wheat starch paste", limit: 3 })
          const hits = structured<typeof TranscriptHitPage.Encoded>(result)
          expect(hits).toEqual(yield* restJson("/v1/transcripts/search?q=wheat%20starch%20paste&limit=3"))
          expect(hits.data).toHaveLength(3)
          expect(hits.data[0]).toMatchObject({ slug: "7", speaker: "Prudence Ashworth" })
          // Each hit's audio link (with #t= only where the paragraph has a time of its own).
          for (const hit of hits.data) expect(textOf(result)).toContain(`listen: ${hit.links.audioAt}`)
          expect(textOf(result)).toContain("listen: https://cdn.contourlines.example/audio/007.mp3")
          const next = structured<typeof TranscriptHitPage.Encoded>(
            yield* call(client, "search_transcripts", {
              query: "wheat starch paste",
              limit: 3,
              cursor: hits.nextCursor
            })
          )
          expect(next.data[0]?.paragraphIndex).not.toBe(hits.data[0]?.paragraphIndex)
          const seasonOne = structured<typeof TranscriptHitPage.Encoded>(
            yield* call(client, "search_transcripts", { query: "map", session: 1, limit: 50 })
          )
          expect(seasonOne.data.every((hit) => hit.session === 1)).toBe(true)
          toolError(yield* call(client, "search_transcripts", {}), /query/)
          toolError(
            yield* call(client, "search_transcripts", { query: "a" }),
            "query must hold at least one word"
          )
          toolError(yield* call(client, "search_transcripts", { query: "map", limit: 100 }), /limit/)
        })
    )

    it.scoped("get_transcript returns at most max_characters, with truncated and the full length", () =>
      Effect.gen(function* () {
        const client = yield* catalogClient
        const full = (yield* restJson<typeof TranscriptDetail.Encoded>("/v1/transcripts/7")).data
        const length = Array.from(full.text).length
        type Excerpt = {
          text: string
          truncated: boolean
          totalCharacters: number
          paragraphCount: number
          slug: string
        }
        // The default (20000) is more than this transcript holds: all of it, not truncated.
        const whole = structured<Excerpt>(yield* call(client, "get_transcript", { slug: "7" }))
        expect(whole).toMatchObject({ slug: "7", text: full.text, truncated: false, totalCharacters: length })
        expect(whole.paragraphCount).toBe(full.paragraphs.length)
        const cut = yield* call(client, "get_transcript", { slug: "7", max_characters: 300 })
        const excerpt = structured<Excerpt>(cut)
        expect(Array.from(excerpt.text)).toHaveLength(300)
        expect(full.text.startsWith(excerpt.text)).toBe(true)
        expect(excerpt).toMatchObject({ truncated: true, totalCharacters: length })
        expect(textOf(cut)).toContain(`showing the first 300 of ${length} characters (truncated`)
        const exact = structured<Excerpt>(
          yield* call(client, "get_transcript", { slug: "7", max_characters: length })
        )
        expect(exact).toMatchObject({ truncated: false, text: full.text })
        expect(
          structured<Excerpt>(yield* call(client, "get_transcript", { slug: "7", max_characters: 1 })).text
        ).toBe(Array.from(full.text)[0])
        expect(
          structured<Excerpt>(yield* call(client, "get_transcript", { slug: "7", max_characters: 200000 }))
            .truncated
        ).toBe(false)
        toolError(
          yield* call(client, "get_transcript", { slug: "7", max_characters: 0 }),
          "max_characters: must be an integer from 1 to 200000"
        )
        toolError(
          yield* call(client, "get_transcript", { slug: "7", max_characters: 200001 }),
          "max_characters: must be an integer from 1 to 200000"
        )
        toolError(
          yield* call(client, "get_transcript", { slug: "41" }),
          "Episode 41 has no local transcript."
        )
        toolError(yield* call(client, "get_transcript", { slug: "999" }), 'No episode has the slug "999".')
      })
    )

    it.scoped("an unknown tool is a protocol error whose message says so once, in every revision", () =>
      Effect.gen(function* () {
        for (const kind of clientKinds) {
          const session = yield* connect("/mcp", kind)
          const failure = yield* outcome(session, "delete_episode", {})
          expect(failure, kind).toEqual({ code: -32602, message: "Tool delete_episode not found" })
        }
        // On the wire the message is the SDK's own, without a code in front of it.
        const answer = yield* raw("/mcp", {
          headers: modernHeaders("tools/call", "delete_episode"),
          body: modernBody(4, "tools/call", { name: "delete_episode", arguments: {} })
        })
        expect(JSON.parse(answer.body)).toEqual({
          jsonrpc: "2.0",
          id: 4,
          error: { code: -32602, message: "Tool delete_episode not found" }
        })
      })
    )

    it.scoped(
      "every client and revision gets the same tools, schemas, annotations and answers, and structuredContent validates against each outputSchema",
      () =>
        Effect.gen(function* () {
          const calls: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
            ["search_episodes", { limit: 3 }],
            ["search_episodes", { query: "wheat starch paste", session: 1 }],
            ["get_episode", { slug: "7" }],
            ["get_episode", { slug: -1 }],
            ["search_transcripts", { query: "fog signal", limit: 2 }],
            ["get_transcript", { slug: "7", max_characters: 120 }],
            ["get_episode", { slug: "999" }],
            ["search_episodes", { limit: 0 }],
            ["get_transcript", { slug: "41" }],
            ["nope", {}]
          ]
          const validator = new AjvJsonSchemaValidator()
          const seen: Array<{ tools: ReadonlyArray<Tool>; answers: ReadonlyArray<unknown> }> = []
          for (const kind of clientKinds) {
            const session = yield* connect("/mcp", kind)
            expect(session.protocolVersion, kind).toBe(revisionOf[kind])
            expect(session.serverName, kind).toBe("podcast-catalog")
            const tools = yield* Effect.promise(() => session.listTools())
            const answers: Array<unknown> = []
            for (const [name, args] of calls) {
              const answer = yield* outcome(session, name, args)
              answers.push(answer)
              const outputSchema = tools.find((tool) => tool.name === name)?.outputSchema
              if ("structuredContent" in answer && answer.structuredContent !== undefined) {
                expect(outputSchema, name).toBeDefined()
                const checked = validator.getValidator((outputSchema ?? {}) as JsonSchemaType)(
                  answer.structuredContent
                )
                expect(checked.errorMessage, `${kind}: ${name}`).toBeUndefined()
                expect(checked.valid).toBe(true)
              }
            }
            seen.push({ tools, answers })
          }
          const [first, ...others] = seen
          for (const other of others) {
            expect(other.tools).toEqual(first?.tools)
            expect(other.answers).toEqual(first?.answers)
          }
          // The answers are the tools' own: successes with structured content, then the tool errors.
          expect(
            first?.answers.slice(0, 6).every((answer) => (answer as { isError?: boolean }).isError === false)
          ).toBe(true)
          expect(
            first?.answers.slice(6, 9).every((answer) => (answer as { isError?: boolean }).isError === true)
          ).toBe(true)
        })
    )

    it.scoped("the v1 client speaks every protocol version it supports, the newest by default", () =>
      Effect.gen(function* () {
        const newest = yield* connect("/mcp", "v1 client")
        expect(newest.protocolVersion).toBe(LATEST_PROTOCOL_VERSION)
        for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
          const { client, transport } = yield* connectV1At("/mcp", version)
          expect(transport.protocolVersion).toBe(version)
          expect(client.getServerVersion()?.name).toBe("podcast-catalog")
          const { tools } = yield* Effect.promise(() => client.listTools())
          expect(tools).toHaveLength(4)
          const result = (yield* Effect.promise(() =>
            client.callTool({ name: "get_episode", arguments: { slug: "1" } })
          )) as CallToolResult
          expect(structured<typeof EpisodeDetail.Encoded>(result).data.slug).toBe("1")
        }
      })
    )

    it.effect(
      "in 2026-07-28 the lists and discovery carry caching hints from the snapshot; earlier revisions have no such fields",
      () =>
        Effect.gen(function* () {
          for (const [path, method] of [
            ["/mcp", "tools/list"],
            ["/mcp", "server/discover"],
            ["/mcp/docs", "tools/list"],
            ["/mcp/docs", "resources/list"]
          ] as const) {
            const answer = yield* raw(path, { headers: modernHeaders(method), body: modernBody(1, method) })
            expect(answer.status, `${path} ${method}`).toBe(200)
            expect(JSON.parse(answer.body).result, `${path} ${method}`).toMatchObject({
              resultType: "complete",
              ttlMs: 300_000,
              cacheScope: "public"
            })
          }
          const read = yield* raw("/mcp/docs", {
            headers: modernHeaders("resources/read", "docs://catalog/mcp.md"),
            body: modernBody(2, "resources/read", { uri: "docs://catalog/mcp.md" })
          })
          expect(JSON.parse(read.body).result).toMatchObject({ ttlMs: 300_000, cacheScope: "public" })
          const legacy = yield* raw("/mcp", { headers: mcpHeaders, body: listToolsBody })
          expect(JSON.parse(legacy.body).result.ttlMs).toBeUndefined()
          expect(JSON.parse(legacy.body).result.tools).toHaveLength(4)
        })
    )

    it.effect("JSON-RPC errors carry the request's id and the code each revision gives", () =>
      Effect.gen(function* () {
        const errorOf = (answer: RawResponse) =>
          JSON.parse(answer.body) as { id: unknown; error: { code: number } }
        // 2026-07-28: an unknown method is -32601 with HTTP 404; ping and logging are gone from it.
        for (const method of ["notes/delete", "ping"]) {
          const unknown = yield* raw("/mcp", { headers: modernHeaders(method), body: modernBody(7, method) })
          expect(unknown.status, method).toBe(404)
          expect(errorOf(unknown), method).toMatchObject({ id: 7, error: { code: -32601 } })
        }
        // Headers that disagree with the body: the header-mismatch code, 400.
        const mismatch = yield* raw("/mcp", {
          headers: modernHeaders("tools/call", "get_transcript"),
          body: modernBody(8, "tools/call", { name: "get_episode", arguments: { slug: "1" } })
        })
        expect(mismatch.status).toBe(400)
        expect(errorOf(mismatch)).toMatchObject({ id: 8, error: { code: -32020 } })
        const wrongMethod = yield* raw("/mcp", {
          headers: modernHeaders("tools/call"),
          body: modernBody(9, "tools/list")
        })
        expect(errorOf(wrongMethod)).toMatchObject({ id: 9, error: { code: -32020 } })
        // An invalid `_meta` envelope: -32602.
        const badMeta = yield* raw("/mcp", {
          headers: modernHeaders("tools/list"),
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: "ten",
            method: "tools/list",
            params: { _meta: { [versionKey]: "2026-07-28", [capabilitiesKey]: 5 } }
          })
        })
        expect(badMeta.status).toBe(400)
        expect(errorOf(badMeta)).toMatchObject({ id: "ten", error: { code: -32602 } })
        // 2025-11-25: an unknown method is -32601 in a 200; refusals of the transport keep the id too.
        const legacyUnknown = yield* raw("/mcp", {
          headers: mcpHeaders,
          body: JSON.stringify({ jsonrpc: "2.0", id: 12, method: "notes/delete" })
        })
        expect(errorOf(legacyUnknown)).toMatchObject({ id: 12, error: { code: -32601 } })
        const unknownVersion = yield* raw("/mcp", {
          headers: { ...mcpHeaders, "mcp-protocol-version": "1999-01-01" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 13, method: "tools/list" })
        })
        expect(unknownVersion.status).toBe(400)
        expect(errorOf(unknownVersion).id).toBe(13)
        const notAcceptable = yield* raw("/mcp", {
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: "fourteen", method: "tools/list" })
        })
        expect(notAcceptable.status).toBe(406)
        expect(errorOf(notAcceptable).id).toBe("fourteen")
        // Without a readable id (not JSON, a batch) the id is null, as JSON-RPC says.
        expect(errorOf(yield* raw("/mcp", { headers: mcpHeaders, body: "{ not json" })).id).toBeNull()
      })
    )

    it.effect("GET, DELETE and HEAD answer 405 with Allow: a stateless endpoint has no stream to open", () =>
      Effect.gen(function* () {
        for (const method of ["GET", "DELETE", "PUT", "HEAD"]) {
          const response = yield* raw("/mcp", { method, headers: { accept: "text/event-stream" } })
          expect(response.status, method).toBe(405)
          expect(response.headers.allow).toBe("POST, OPTIONS")
          if (method !== "HEAD") expectEnvelope(response, 405, "METHOD_NOT_ALLOWED")
        }
        expectEnvelope(yield* raw("/mcp/docs", { method: "GET" }), 405, "METHOD_NOT_ALLOWED")
      })
    )

    it.effect(
      "refuses a foreign Origin or Host with 403 in the envelope, and accepts loopback and public hosts and origins",
      () =>
        Effect.gen(function* () {
          const { port } = yield* ServerAddress
          const foreignOrigin = yield* raw("/mcp", {
            headers: { ...mcpHeaders, origin: "https://evil.example" },
            body: listToolsBody
          })
          expectEnvelope(foreignOrigin, 403, "FORBIDDEN")
          expect(JSON.parse(foreignOrigin.body).message).toContain("MCP_ALLOWED_ORIGINS")
          expectEnvelope(
            yield* raw("/mcp", { headers: { ...mcpHeaders, origin: "null" }, body: listToolsBody }),
            403,
            "FORBIDDEN"
          )
          const rebound = yield* raw("/mcp", {
            headers: { ...mcpHeaders, host: `evil.example:${port}` },
            body: listToolsBody
          })
          expectEnvelope(rebound, 403, "FORBIDDEN")
          expect(JSON.parse(rebound.body).message).toContain("MCP_ALLOWED_HOSTS")
          expectEnvelope(
            yield* raw("/mcp/docs", {
              headers: { ...mcpHeaders, host: "evil.example" },
              body: listToolsBody
            }),
            403,
            "FORBIDDEN"
          )
          for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, "catalog.test"]) {
            const allowed = yield* raw("/mcp", { headers: { ...mcpHeaders, host }, body: listToolsBody })
            expect(allowed.status, host).toBe(200)
            expect(JSON.parse(allowed.body).result.tools).toHaveLength(4)
          }
          // The SDK clients surface the refusal as an HTTP error, in either revision.
          for (const kind of clientKinds) {
            const failure = yield* Effect.flip(
              Effect.scoped(
                Effect.flatMap(ServerAddress, (address) =>
                  Effect.tryPromise(() =>
                    openSessionFor(kind, `${address.url}/mcp`, { origin: "https://evil.example" })
                  )
                )
              )
            )
            expect(String(failure.error), kind).toContain("403")
            if (kind !== "v1 client") {
              expect(failure.error, kind).toBeInstanceOf(SdkHttpError)
              expect((failure.error as SdkHttpError).status).toBe(403)
            }
          }
          // The service's own origin and, on a loopback deployment, loopback origins are allowed.
          for (const origin of [`http://127.0.0.1:${port}`, "http://localhost:6274", "http://[::1]:5173"]) {
            const allowed = yield* raw("/mcp", { headers: { ...mcpHeaders, origin }, body: listToolsBody })
            expect(allowed.status, origin).toBe(200)
            expect(allowed.headers["access-control-allow-origin"], origin).toBe(origin)
          }
        })
    )

    it.effect("leaves protocol errors to the SDK: 406 without both Accept types, 400 on malformed JSON", () =>
      Effect.gen(function* () {
        const notAcceptable = yield* raw("/mcp", {
          headers: { "content-type": "application/json", accept: "application/json" },
          body: listToolsBody
        })
        expect(notAcceptable.status).toBe(406)
        const malformed = yield* raw("/mcp", { headers: mcpHeaders, body: "{ not json" })
        expect(malformed.status).toBe(400)
        expect(JSON.parse(malformed.body).error.code).toBe(-32700)
        const tooLarge = yield* raw("/mcp", {
          headers: mcpHeaders,
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/list",
            params: { pad: "x".repeat(70_000) }
          })
        })
        expectEnvelope(tooLarge, 413, "PAYLOAD_TOO_LARGE")
      })
    )
  })
})

describe("the documentation MCP server (/mcp/docs)", () => {
  it.layer(contentTestServer())((it) => {
    const docsClient = Effect.tap(connect("/mcp/docs"), (session) =>
      Effect.promise(() => session.listTools())
    )
    const docText = (path: string) => readFileSync(join(contentDirectory, "docs", path), "utf8")

    it.scoped("search_docs ranks the pages and get_doc returns a page's Markdown", () =>
      Effect.gen(function* () {
        const client = yield* docsClient
        expect(client.serverName).toBe("podcast-catalog-docs")
        const found = yield* call(client, "search_docs", { query: "Streamable HTTP tools" })
        const hits = structured<{
          data: Array<{ path: string; uri: string; snippet: string; relevance: number }>
        }>(found)
        expect(hits.data[0]).toMatchObject({ path: "mcp.md", uri: "docs://catalog/mcp.md" })
        expect(hits.data[0]?.relevance).toBeGreaterThan(0)
        expect(textOf(found)).toContain("- mcp.md:")
        const page = yield* call(client, "get_doc", { path: "conditional-requests.md" })
        const doc = structured<{ path: string; title: string; text: string }>(page)
        expect(doc.path).toBe("conditional-requests.md")
        expect(doc.text.trim()).toBe(docText("conditional-requests.md").trim())
        expect(textOf(page)).toBe(doc.text)
      })
    )

    it.scoped("unknown pages and meaningless queries are tool errors", () =>
      Effect.gen(function* () {
        const client = yield* docsClient
        toolError(
          yield* call(client, "get_doc", { path: "secrets.md" }),
          /No documentation page has the path "secrets.md". The pages are: .*mcp\.md/
        )
        toolError(yield* call(client, "get_doc", {}), /path/)
        toolError(yield* call(client, "search_docs", { query: "" }), "query must hold at least one word")
        toolError(yield* call(client, "search_docs", { query: "x".repeat(501) }), /query/)
        const nothing = structured<{ data: Array<unknown> }>(
          yield* call(client, "search_docs", { query: "zeppelin" })
        )
        expect(nothing.data).toEqual([])
      })
    )

    it.scoped("lists the same pages as resources and reads them, in every revision", () =>
      Effect.gen(function* () {
        for (const kind of clientKinds) {
          const client = yield* connect("/mcp/docs", kind)
          const resources = yield* Effect.promise(() => client.listResources())
          expect(resources.map((resource) => resource.name).sort(), kind).toEqual([
            "catalog-api.md",
            "conditional-requests.md",
            "foundation-api.md",
            "getting-started.md",
            "mcp.md",
            "observability.md",
            "rpc-and-ask.md",
            "snapshot.md"
          ])
          const mcp = resources.find((resource) => resource.name === "mcp.md")
          expect(mcp, kind).toMatchObject({
            uri: "docs://catalog/mcp.md",
            mimeType: "text/markdown",
            title: "MCP servers"
          })
          const read = yield* Effect.promise(() => client.readResource("docs://catalog/mcp.md"))
          const content = read.contents[0]
          expect(content && "text" in content ? content.text.trim() : "", kind).toBe(docText("mcp.md").trim())
          // A page that does not exist: -32602 naming the URI (2026-07-28; the SDK answers so in every revision).
          const missing = yield* Effect.flip(
            Effect.tryPromise(() => client.readResource("docs://catalog/nope.md"))
          )
          expect((missing.error as { code?: number }).code, kind).toBe(-32602)
          expect((missing.error as { data?: unknown }).data, kind).toEqual({ uri: "docs://catalog/nope.md" })
        }
      })
    )
  })
})

describe("MCP with allowed browser origins and a small rate limit", () => {
  it.layer(
    contentTestServer({
      MCP_ALLOWED_ORIGINS: "https://app.example",
      MCP_ALLOWED_HOSTS: "mcp.example",
      PUBLIC_ORIGIN: "https://podcast.example",
      CATALOG_RATE_LIMIT: "7"
    })
  )((it) => {
    it.effect(
      "an allowed origin and host work, with CORS headers and a preflight; the limit is the catalog's, 429 beyond it",
      () =>
        Effect.gen(function* () {
          const preflight = yield* raw("/mcp", {
            method: "OPTIONS",
            headers: { origin: "https://app.example", "access-control-request-method": "POST" }
          })
          expect(preflight.status).toBe(204)
          expect(preflight.headers["access-control-allow-origin"]).toBe("https://app.example")
          expect(preflight.headers["access-control-allow-methods"]).toBe("POST")
          // 1: an allowed origin, answered with the CORS header.
          const fromApp = yield* raw("/mcp", {
            headers: { ...mcpHeaders, origin: "https://app.example" },
            body: listToolsBody
          })
          expect(fromApp.status).toBe(200)
          expect(fromApp.headers["access-control-allow-origin"]).toBe("https://app.example")
          // 2: an allowed host name; 3: the service's own origin and host, allowed without being listed.
          expect(
            (yield* raw("/mcp", { headers: { ...mcpHeaders, host: "mcp.example" }, body: listToolsBody }))
              .status
          ).toBe(200)
          const own = yield* raw("/mcp", {
            headers: { ...mcpHeaders, host: "podcast.example", origin: "https://podcast.example" },
            body: listToolsBody
          })
          expect(own.status).toBe(200)
          expect(own.headers["access-control-allow-origin"]).toBe("https://podcast.example")
          // 4-5: REST spends from the same budget.
          expect((yield* request("/v1/episodes?limit=1")).status).toBe(200)
          expect((yield* request("/v1/episodes?limit=2")).status).toBe(200)
          // 6-7: MCP again, then the budget is gone.
          expect((yield* raw("/mcp/docs", { headers: mcpHeaders, body: listToolsBody })).status).toBe(200)
          expect((yield* raw("/mcp", { headers: mcpHeaders, body: listToolsBody })).status).toBe(200)
          const refused = yield* raw("/mcp", {
            headers: { ...mcpHeaders, origin: "http://localhost:5173" },
            body: listToolsBody
          })
          expectEnvelope(refused, 429, "TOO_MANY_REQUESTS")
          expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0)
          expect(refused.headers["access-control-allow-origin"]).toBe("http://localhost:5173")
          expect((yield* request("/v1/episodes?limit=3")).status).toBe(429)
        })
    )
  })
})
