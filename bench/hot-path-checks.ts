// What each check the server runs on every request costs alone, in nanoseconds a call, against an
// empty call in the same run: the shutdown drain's bookkeeping, the Host check, the probes' URL
// check (every request is offered to them first) and the rate limiter's take, the per-request work
// on the REST hot path; and the agents' fast path's own steps (parsing a lookup's body, its key, its
// recall). A fast-path answer costs tens of microseconds of CPU, so these matter only in the
// hundreds of nanoseconds. `npm run bench -- hot-path-checks` (BENCH_CALLS, 5,000,000 by default).
import * as Http from "node:http"
import * as Net from "node:net"
import { loadavg } from "node:os"
import { makeAnswerMemo, parseJson } from "../src/catalog/AnswerMemo.js"
import { mcpAnswerProtocol } from "../src/catalog/mcp/McpFastPath.js"
import { lacksHost } from "../src/http/ClientErrors.js"
import { makeConnectionDrain } from "../src/http/ConnectionDrain.js"
import { makeProbes } from "../src/http/Probes.js"
import { makeRateLimiter } from "../src/http/RateLimiter.js"

const calls = Number(process.env.BENCH_CALLS ?? 5_000_000)

// A request as the server sees it, on a connection the drain knows.
const server = Http.createServer()
const drain = makeConnectionDrain(server)
const socket = new Net.Socket()
server.emit("connection", socket)
const request = new Http.IncomingMessage(socket)
request.method = "GET"
request.url = "/v1/episodes/7"
request.httpVersionMajor = 1
request.httpVersionMinor = 1
request.headers = { host: "127.0.0.1:8080", "user-agent": "autocannon" }
const response = new Http.ServerResponse(request)
const probes = makeProbes({
  checks: [],
  draining: () => false,
  runPromise: () => Promise.reject(new Error("no readiness checks here"))
})
const limiter = makeRateLimiter({ perMinute: 100_000_000 })

// An MCP lookup as the bench sends it, its answer kept.
const lookupHeaders = {
  host: "127.0.0.1:8080",
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25"
}
const lookup = Buffer.from(
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "get_episode", arguments: { slug: "7" } }
  })
)
const memo = makeAnswerMemo(mcpAnswerProtocol, 10)
const parsedLookup = parseJson(lookup)?.value
const key = memo.keyOf(lookupHeaders, parsedLookup)
if (key === undefined) throw new Error("the lookup is not memoizable")
memo.keep(key, {
  status: 200,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ result: { structuredContent: { text: "x".repeat(4_000) } }, jsonrpc: "2.0", id: 1 })
})

const time = (f: () => unknown) => {
  for (let i = 0; i < 200_000; i++) f()
  const started = process.hrtime.bigint()
  for (let i = 0; i < calls; i++) f()
  return Number(process.hrtime.bigint() - started) / calls
}

const checks: ReadonlyArray<readonly [string, () => unknown]> = [
  ["empty call (baseline)", () => 0],
  ["drain.track (not draining)", () => drain.track(request, response)],
  ["lacksHost", () => lacksHost(request)],
  ["probes (a URL that is no probe)", () => probes(request, response)],
  ["rate limiter take (one client)", () => limiter.take("127.0.0.1")],
  ["Date.now (in the take)", () => Date.now()],
  ["agents: parse the lookup's body", () => parseJson(lookup)],
  ["agents: the lookup's key", () => memo.keyOf(lookupHeaders, parsedLookup)],
  ["agents: recall (4 KB answer)", () => memo.recall(key)]
]

// Two rounds, alternating, keeping each check's better figure.
const best = new Map<string, number>()
for (let round = 0; round < 2; round++) {
  for (const [name, check] of checks) best.set(name, Math.min(best.get(name) ?? Infinity, time(check)))
}
console.log(
  `\n${calls.toLocaleString("en-US")} calls each, best of 2 rounds; load average ${loadavg()[0]?.toFixed(2)}.\n`
)
console.log("| check | ns a call |\n|---|---|")
for (const [name, ns] of best) console.log(`| ${name} | ${ns.toFixed(1)} |`)
