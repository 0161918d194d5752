// The agent surfaces against REST for the same lookups, in one run: an episode by slug and an
// episode search, answered by REST (GET, fast path and Effect HttpApi path), by MCP `tools/call`
// (a stateless POST to /mcp) and by RPC (a POST to /rpc with one JSON request message). With the
// fast path on, a repeated MCP or RPC lookup is answered from the pipeline's first answer (the
// agents' fast path, AnswerMemo.ts); the rows "(pipeline)" run on the server with the fast path
// off, where every request builds its MCP server and transport or goes through RpcServer. Every
// server runs in its own process over the demo podcast's snapshot; autocannon drives all of them
// from this one, with identical settings.
// `npm run bench -- catalog-agents`; prints the Markdown table for BENCHMARKS.md.
import type { ChildProcess } from "node:child_process"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import autocannon from "autocannon"
import { ensureSnapshot, startCommand, startOurServer } from "./_servers/StartCommand.js"

const snapshot = process.env.BENCH_SNAPSHOT ?? join(tmpdir(), "bench-snapshot-agents-content")
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32)
const rounds = Number(process.env.BENCH_ROUNDS ?? 2)

ensureSnapshot(snapshot)

/** Our server on `port` in its own process (as `npm start` runs it), the rate limit out of the way. */
const ourCommand = startCommand()
const startServer = (port: number, fastPath: boolean) =>
  startOurServer(ourCommand, {
    PORT: String(port),
    CATALOG_DIR: snapshot,
    FOUNDATION_ENABLED: "false",
    CATALOG_RATE_LIMIT: "100000000",
    CATALOG_FAST_PATH: String(fastPath),
    // One public origin for both servers: the answers' links are built from it, and must be equal.
    PUBLIC_ORIGIN: "http://catalog.bench.example"
  })

interface Call {
  readonly method: "GET" | "POST"
  readonly path: string
  readonly headers?: Record<string, string>
  readonly body?: string
}

const mcpCall = (name: string, args: Record<string, unknown>): Call => ({
  method: "POST",
  path: "/mcp",
  headers: {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-11-25"
  },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } })
})

const rpcCall = (tag: string, payload: Record<string, unknown>): Call => ({
  method: "POST",
  path: "/rpc",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ _tag: "Request", id: "1", tag, payload, headers: [] })
})

/** The JSON a call answers with, as the caller sees the lookup's result. */
const resultOf = async (port: number, call: Call): Promise<unknown> => {
  const response = await fetch(`http://127.0.0.1:${port}${call.path}`, {
    method: call.method,
    headers: call.headers ?? {},
    ...(call.body === undefined ? {} : { body: call.body })
  })
  if (response.status !== 200) throw new Error(`${call.method} ${call.path}: ${response.status}`)
  const json = (await response.json()) as {
    result?: { structuredContent?: unknown }
    0?: { exit?: { value?: unknown } }
  }
  if (call.path === "/mcp") return json.result?.structuredContent
  if (call.path === "/rpc") return json[0]?.exit?.value
  return json
}

interface Measured {
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
}

const load = async (port: number, call: Call, duration: number) => {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${call.path}`,
    connections,
    duration,
    method: call.method,
    headers: call.headers ?? {},
    ...(call.body === undefined ? {} : { body: call.body })
  })
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${call.method} ${call.path}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  }
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 }
}

interface Row {
  readonly lookup: string
  readonly surface: string
  readonly port: number
  readonly call: Call
}

const fastPort = 18_501
const routedPort = 18_502
const lookups: ReadonlyArray<{ readonly name: string; readonly rows: ReadonlyArray<Row> }> = [
  {
    name: "episode 7 by slug",
    rows: [
      {
        lookup: "episode",
        surface: "REST `GET /v1/episodes/7` (fast path)",
        port: fastPort,
        call: { method: "GET", path: "/v1/episodes/7" }
      },
      {
        lookup: "episode",
        surface: "REST `GET /v1/episodes/7` (Effect HttpApi)",
        port: routedPort,
        call: { method: "GET", path: "/v1/episodes/7" }
      },
      {
        lookup: "episode",
        surface: "MCP `tools/call get_episode`",
        port: fastPort,
        call: mcpCall("get_episode", { slug: "7" })
      },
      {
        lookup: "episode",
        surface: "RPC `GetEpisode`",
        port: fastPort,
        call: rpcCall("GetEpisode", { slug: "7" })
      },
      {
        lookup: "episode",
        surface: "MCP `tools/call get_episode` (pipeline)",
        port: routedPort,
        call: mcpCall("get_episode", { slug: "7" })
      },
      {
        lookup: "episode",
        surface: "RPC `GetEpisode` (pipeline)",
        port: routedPort,
        call: rpcCall("GetEpisode", { slug: "7" })
      }
    ]
  },
  {
    name: "episode search “maps”, 10 per page",
    rows: [
      {
        lookup: "search",
        surface: "REST `GET /v1/episodes?q=maps&limit=10`",
        port: fastPort,
        call: { method: "GET", path: "/v1/episodes?q=maps&limit=10" }
      },
      {
        lookup: "search",
        surface: "MCP `tools/call search_episodes`",
        port: fastPort,
        call: mcpCall("search_episodes", { query: "maps", limit: 10 })
      },
      {
        lookup: "search",
        surface: "RPC `SearchEpisodes`",
        port: fastPort,
        call: rpcCall("SearchEpisodes", { query: "maps", limit: 10 })
      }
    ]
  }
]

const servers: Array<ChildProcess> = []
try {
  servers.push(await startServer(fastPort, true), await startServer(routedPort, false))

  // The same lookup must give the same data on every surface before its speed means anything.
  for (const { name, rows } of lookups) {
    const [reference, ...others] = await Promise.all(rows.map((row) => resultOf(row.port, row.call)))
    for (const [i, other] of others.entries()) {
      if (JSON.stringify(other) !== JSON.stringify(reference)) {
        throw new Error(`${name}: ${rows[i + 1]?.surface} answers differently from ${rows[0]?.surface}`)
      }
    }
  }

  const best = new Map<Row, Measured>()
  for (const { rows } of lookups) for (const row of rows) await load(row.port, row.call, 2)
  // Rounds alternate the surfaces, so a slow moment of the machine does not fall on one of them.
  for (let round = 0; round < rounds; round++) {
    for (const { rows } of lookups) {
      for (const row of rows) {
        const measured = await load(row.port, row.call, seconds)
        const previous = best.get(row)
        if (previous === undefined || measured.requestsPerSecond > previous.requestsPerSecond)
          best.set(row, measured)
      }
    }
  }

  const format = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 0 })
  const lines = ["| lookup | surface | req/s | / first REST row | p50 / p99 ms |", "|---|---|---|---|---|"]
  for (const { name, rows } of lookups) {
    const rest = best.get(rows[0] as Row)?.requestsPerSecond ?? 1
    for (const row of rows) {
      const measured = best.get(row)
      if (measured === undefined) continue
      lines.push(
        `| ${name} | ${row.surface} | ${format(measured.requestsPerSecond)} | ${(measured.requestsPerSecond / rest).toFixed(2)} | ${measured.p50} / ${measured.p99} |`
      )
    }
  }
  const loadAverage = loadavg()[0]?.toFixed(2)
  console.log(
    `\nautocannon, ${connections} connections, ${seconds} s per row, best of ${rounds} alternating rounds after a 2 s warm-up; demo podcast snapshot; load average ${loadAverage} at the end.\n`
  )
  console.log(lines.join("\n"))
} finally {
  for (const server of servers) server.kill()
}
