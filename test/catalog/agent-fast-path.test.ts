// The agents' fast path (MCP and RPC lookups answered again from memory) and the pipeline are one
// implementation: for every lookup, in both MCP revisions, for clients with and without the MCP
// Apps extension, the answers of a server with the fast path (the first from the pipeline, the
// next ones recalled) and of a server without it have the same status, bytes and headers, whatever
// the request's id. And a recalled answer spends the rate limit like any other.
import { describe, expect, it } from "@effect/vitest"
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { makeAnswerMemo } from "../../src/catalog/AnswerMemo.js"
import { mcpAnswerProtocol } from "../../src/catalog/mcp/McpFastPath.js"
import { rpcAnswerProtocol } from "../../src/catalog/rpc/RpcFastPath.js"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { catalogServerOn, catalogTestServer, FixtureSnapshot } from "../support/CatalogTestServer.js"

interface Raw {
  readonly status: number
  readonly headers: Headers
  readonly body: string
}

const post = (port: number, path: string, headers: Record<string, string>, body: string) =>
  Effect.promise(async (): Promise<Raw> => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { method: "POST", headers, body })
    return { status: response.status, headers: response.headers, body: await response.text() }
  })

const compared = ["content-type", "content-length", "access-control-allow-origin", "vary", "cache-control"]

const mcpHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" }
const versionKey = "io.modelcontextprotocol/protocolVersion"
const capabilitiesKey = "io.modelcontextprotocol/clientCapabilities"
const appsCapabilities = { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } }

interface Lookup {
  readonly path: string
  readonly headers: Record<string, string>
  /** The request's body for an id. */
  readonly body: (id: string | number) => string
}

/** A lookup of the 2025-11-25 revision (plain requests, no envelope). */
const legacy = (path: string, method: string, params?: Record<string, unknown>): Lookup => ({
  path,
  headers: { ...mcpHeaders, "mcp-protocol-version": "2025-11-25" },
  body: (id) => JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) })
})

/** A lookup of the 2026-07-28 revision, its client declaring `capabilities` in the envelope. */
const modern = (
  path: string,
  method: string,
  name: string | undefined,
  params: Record<string, unknown>,
  capabilities: object
): Lookup => ({
  path,
  headers: {
    ...mcpHeaders,
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(name === undefined ? {} : { "mcp-name": name })
  },
  body: (id) =>
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      method,
      params: { ...params, _meta: { [versionKey]: "2026-07-28", [capabilitiesKey]: capabilities } }
    })
})

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args })

const tools: ReadonlyArray<[string, Record<string, unknown>]> = [
  ["get_episode", { slug: "4" }],
  ["get_episode", { slug: "404" }],
  ["get_episode", { slug: 4 }],
  ["search_episodes", { query: "fog horn", limit: 2 }],
  ["search_transcripts", { query: "fog" }],
  ["get_transcript", { slug: "3" }],
  ["no_such_tool", {}]
]

const mcpLookups: ReadonlyArray<Lookup> = [
  ...tools.flatMap(([name, args]) => [
    legacy("/mcp", "tools/call", call(name, args)),
    modern("/mcp", "tools/call", name, call(name, args), {}),
    modern("/mcp", "tools/call", name, call(name, args), appsCapabilities)
  ]),
  legacy("/mcp", "tools/list"),
  modern("/mcp", "tools/list", undefined, {}, {}),
  modern("/mcp", "tools/list", undefined, {}, appsCapabilities),
  modern("/mcp", "resources/list", undefined, {}, appsCapabilities),
  legacy("/mcp/docs", "tools/call", call("search_docs", { query: "rate limit" })),
  legacy("/mcp/docs", "resources/list"),
  modern("/mcp/docs", "tools/call", "search_docs", call("search_docs", { query: "rate limit" }), {}),
  // A browser's request from an origin that is not allowed: refused before the SDK, every time.
  {
    ...legacy("/mcp", "tools/list"),
    headers: { ...legacy("/mcp", "tools/list").headers, origin: "https://evil.example" }
  },
  // Without both Accept types the SDK refuses (406), every time.
  {
    ...legacy("/mcp", "tools/list"),
    headers: { "content-type": "application/json", accept: "application/json" }
  }
]

const rpc = (tag: string, payload: unknown): Lookup => ({
  path: "/rpc",
  headers: { "content-type": "application/json" },
  body: (id) => JSON.stringify({ _tag: "Request", id: String(id), tag, payload, headers: [] })
})

const rpcLookups: ReadonlyArray<Lookup> = [
  rpc("GetEpisode", { slug: "4" }),
  rpc("GetEpisode", { slug: "404" }),
  rpc("GetEpisode", { slug: 4 }),
  rpc("SearchEpisodes", { query: "fog horn", limit: 2 }),
  rpc("SearchTranscripts", { query: "fog" }),
  rpc("GetTranscript", { slug: "3" })
]

/** The test server (fast path on) and a second server on the same snapshot with it off. */
const bothPaths = Effect.gen(function* () {
  const snapshot = yield* FixtureSnapshot
  const fast = yield* ServerAddress
  const routed = Context.get(
    yield* Layer.build(catalogServerOn(snapshot.directory, { CATALOG_FAST_PATH: "false" })),
    ServerAddress
  )
  return { fast, routed }
})

/** Sends `lookup` to both servers with each of `ids`, expecting the same answers. */
const same = (fastPort: number, routedPort: number, lookup: Lookup, ids: ReadonlyArray<string | number>) =>
  Effect.gen(function* () {
    for (const id of ids) {
      const body = lookup.body(id)
      const a = yield* post(fastPort, lookup.path, lookup.headers, body)
      const b = yield* post(routedPort, lookup.path, lookup.headers, body)
      const label = `${lookup.path} ${JSON.stringify(lookup.headers)} ${body}`
      expect(a.status, label).toBe(b.status)
      expect(a.body, label).toBe(b.body)
      for (const name of compared) expect(a.headers.get(name), `${label} ${name}`).toBe(b.headers.get(name))
    }
  })

describe("the agents' fast path", () => {
  it.layer(catalogTestServer())((it) => {
    it.scoped("answers MCP lookups in both revisions, with and without MCP Apps, as the SDK does", () =>
      Effect.gen(function* () {
        const { fast, routed } = yield* bothPaths
        for (const lookup of mcpLookups) yield* same(fast.port, routed.port, lookup, [1, "a", 42, "a"])
      })
    )

    it.scoped("answers RPC lookups as RpcServer does", () =>
      Effect.gen(function* () {
        const { fast, routed } = yield* bothPaths
        for (const lookup of rpcLookups) yield* same(fast.port, routed.port, lookup, ["1", "7", "123456789"])
        // Ids RpcServer does not echo as sent, answered by it each time.
        yield* same(fast.port, routed.port, rpc("GetEpisode", { slug: "4" }), ["007", "1"])
      })
    )

    it.scoped("answers lookups with an allowed browser origin with its CORS headers", () =>
      Effect.gen(function* () {
        const { fast, routed } = yield* bothPaths
        const lookup = legacy("/mcp", "tools/call", call("get_episode", { slug: "4" }))
        yield* same(
          fast.port,
          routed.port,
          { ...lookup, headers: { ...lookup.headers, origin: "https://catalog.example" } },
          [1, 2, 3]
        )
      })
    )
  })

  it.layer(catalogTestServer({ CATALOG_RATE_LIMIT: "3" }))((it) => {
    it.scoped("spends the rate limit on recalled answers and leaves the refusal to the pipeline", () =>
      Effect.gen(function* () {
        const { port } = yield* ServerAddress
        const lookup = legacy("/mcp", "tools/call", call("get_episode", { slug: "4" }))
        for (const id of [1, 2, 3]) {
          expect((yield* post(port, lookup.path, lookup.headers, lookup.body(id))).status).toBe(200)
        }
        const refused = yield* post(port, lookup.path, lookup.headers, lookup.body(4))
        expect(refused.status).toBe(429)
        expect(JSON.parse(refused.body)).toMatchObject({ status: 429, code: "TOO_MANY_REQUESTS" })
        const episode = rpc("GetEpisode", { slug: "4" })
        const rpcRefused = JSON.parse(
          (yield* post(port, episode.path, episode.headers, episode.body("5"))).body
        )
        expect(rpcRefused).toMatchObject([{ _tag: "Exit", requestId: "5", exit: { _tag: "Failure" } }])
      })
    )
  })
})

describe("the answer memo", () => {
  const episode = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_episode" } }

  it("recalls a kept answer with the next request's id, and only a success", () => {
    const memo = makeAnswerMemo(mcpAnswerProtocol, 10)
    const first = memo.keyOf({ host: "a" }, episode)
    expect(first).toBeDefined()
    if (first === undefined) return
    memo.keep(first, {
      status: 200,
      headers: {},
      body: '{"result":{"id":1,"x":"\\u0000"},"jsonrpc":"2.0","id":1}'
    })
    const next = memo.keyOf({ host: "a" }, { ...episode, id: "b" })
    expect(next?.key).toBe(first.key)
    if (next === undefined) return
    expect(memo.recall(next)?.body).toBe('{"result":{"id":1,"x":"\\u0000"},"jsonrpc":"2.0","id":"b"}')
    // Another header is another question.
    const other = memo.keyOf({ host: "a", accept: "application/json" }, episode)
    expect(other === undefined ? undefined : memo.recall(other)).toBeUndefined()
    // An error, an answer for another id, or bytes JSON.stringify would not give back are not kept.
    const memo2 = makeAnswerMemo(mcpAnswerProtocol, 10)
    for (const body of [
      '{"error":{"code":-32602,"message":"no"},"jsonrpc":"2.0","id":1}',
      '{"result":{},"jsonrpc":"2.0","id":2}',
      '{"result": {},"jsonrpc":"2.0","id":1}'
    ]) {
      memo2.keep(first, { status: 200, headers: {}, body })
      expect(memo2.recall(first), body).toBeUndefined()
    }
  })

  it("keeps no more than its size allows: an answer larger than all of it is not kept", () => {
    const memo = makeAnswerMemo(mcpAnswerProtocol, 10, 1_000)
    const key = memo.keyOf({}, episode)
    if (key === undefined) throw new Error("a lookup is memoizable")
    const answer = (text: string) => ({
      status: 200,
      headers: {},
      body: JSON.stringify({ result: { text }, jsonrpc: "2.0", id: 1 })
    })
    memo.keep(key, answer("x".repeat(2_000)))
    expect(memo.recall(key)).toBeUndefined()
    memo.keep(key, answer("small"))
    expect(memo.recall(key)?.body).toBe(answer("small").body)
  })

  it("takes only lookups: no notifications, no other methods, no ids the protocol would not echo", () => {
    const mcp = makeAnswerMemo(mcpAnswerProtocol, 10)
    expect(mcp.keyOf({}, { jsonrpc: "2.0", method: "tools/call" })).toBeUndefined()
    expect(mcp.keyOf({}, { jsonrpc: "2.0", id: 1, method: "initialize" })).toBeUndefined()
    expect(mcp.keyOf({}, { jsonrpc: "2.0", id: 1.5, method: "tools/list" })).toBeUndefined()
    expect(mcp.keyOf({}, [episode])).toBeUndefined()
    const rpcMemo = makeAnswerMemo(rpcAnswerProtocol, 10)
    const request = { _tag: "Request", tag: "GetEpisode", payload: { slug: "4" }, headers: [] }
    expect(rpcMemo.keyOf({}, { ...request, id: "1" })).toBeDefined()
    expect(rpcMemo.keyOf({}, { ...request, id: "01" })).toBeUndefined()
    expect(rpcMemo.keyOf({}, { ...request, id: 1 })).toBeUndefined()
    expect(rpcMemo.keyOf({}, { ...request, id: "1", tag: "Ask" })).toBeUndefined()
  })
})
