// Soak (issue 14): mixed catalog and foundation traffic for 60 s through nginx over two instances of
// the service (the production bundle, real processes) on one PostgreSQL, as the scale-out tests run
// them (test/support/ServiceCluster.ts). Reports requests per second, latency percentiles, every
// answer that was not a 200 (there must be none) and each instance's resident memory at the start
// and the end. Needs nginx and BENCH_DATABASE_URL or TEST_DATABASE_URL.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:54329/postgres npm run bench -- soak
//   SOAK_SECONDS=20 SOAK_CONNECTIONS=16 … for a shorter run
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import autocannon from "autocannon"
import * as Effect from "effect/Effect"

const seconds = Number(process.env.SOAK_SECONDS ?? 60)
const connections = Number(process.env.SOAK_CONNECTIONS ?? 32)
if (process.env.BENCH_DATABASE_URL !== undefined)
  process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL
// The support modules put their temporary folders here; removed at the end.
const scratch = mkdtempSync(join(tmpdir(), "soak-"))
process.env.TEST_TMP_ROOT = scratch

const { clusterMissing, serviceCluster } = await import("../test/support/ServiceCluster.js")
const { buildContentSnapshot } = await import("../test/support/ContentTestServer.js")

const COOKIE = "__Secure-service.session_token"
const password = "a long enough passphrase for the soak"

const json = (body: unknown) => ({
  method: "POST" as const,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body)
})

/** The mix, cycled in order by every connection: mostly reads, a batch, ask, and one sign-in in 20. */
const mix = (
  session: string,
  token: string,
  organizationId: string,
  email: string
): Array<autocannon.Request> => {
  const withSession = { headers: { cookie: `${COOKIE}=${session}` } }
  const withToken = { headers: { authorization: `Bearer ${token}` } }
  return [
    { path: "/v1/episodes?limit=10" },
    { path: "/v1/episodes/12" },
    { path: "/api/v1/profile", ...withSession },
    { path: "/v1/transcripts/search?q=lighthouse&limit=5" },
    { path: `/api/v1/organizations/${organizationId}`, ...withToken },
    { path: "/v1/episodes?q=paper%20conservation&limit=5" },
    { path: "/api/v1/credential-context", ...withSession },
    {
      path: "/v1/batch",
      ...json({
        requests: [
          { id: "a", path: "/v1/episodes/3" },
          { id: "b", path: "/v1/snapshot" }
        ]
      })
    },
    { path: "/v1/transcripts/7" },
    { path: `/api/v1/organizations/${organizationId}/members`, ...withSession },
    { path: "/ask?q=Who%20found%20the%20wreck%20of%20the%20Margery%20Hale%3F" },
    { path: "/health" },
    { path: "/v1/episodes?limit=10&session=2" },
    { path: "/api/v1/context", ...withSession },
    { path: "/v1/episodes/20" },
    { path: "/api/v1/auth/sign-in", ...json({ email, password }) },
    { path: "/v1/transcripts/search?q=paste&limit=5" },
    { path: "/api/v1/organizations", ...withSession },
    { path: "/v1/snapshot" },
    { path: "/api/v1/security/sessions", ...withSession }
  ]
}

const call = async (url: string, init: RequestInit) => {
  const response = await fetch(url, init)
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${init.method ?? "GET"} ${url}: ${response.status} ${text}`)
  return { response, body: JSON.parse(text) as Record<string, unknown> }
}

const run = (url: string, requests: Array<autocannon.Request>, duration: number) =>
  autocannon({ url, connections, duration, requests })

const program = Effect.gen(function* () {
  if (clusterMissing !== undefined) {
    console.log(`soak: cannot run: ${clusterMissing}`)
    process.exitCode = 2
    return
  }
  const snapshot = yield* buildContentSnapshot
  // The limiters run on every request but never refuse (the foundation's accept a million at most).
  const unlimited = "1000000"
  const cluster = yield* serviceCluster(
    {
      CATALOG_RATE_LIMIT: unlimited,
      AUTH_RATE_LIMIT: unlimited,
      AUTH_ADDRESS_RATE_LIMIT: unlimited,
      CREDENTIAL_RATE_LIMIT: unlimited
    },
    2,
    snapshot
  )
  const base = cluster.nginx.url
  const origin = { origin: base }
  const email = `soak-${Date.now()}@example.com`
  const { response } = yield* Effect.promise(() =>
    call(`${base}/api/v1/auth/sign-up`, json({ email, password, name: "Soak" }))
  )
  const session = new RegExp(`${COOKIE}=([^;]+)`).exec(response.headers.get("set-cookie") ?? "")?.[1] ?? ""
  const withSession = { cookie: `${COOKIE}=${session}`, ...origin }
  const organization = yield* Effect.promise(() =>
    call(`${base}/api/v1/organizations`, {
      ...json({ name: "Soak" }),
      headers: { "content-type": "application/json", ...withSession }
    })
  )
  const organizationId = String(organization.body.id)
  const token = yield* Effect.promise(() =>
    call(`${base}/api/v1/organizations/${organizationId}/tokens`, {
      ...json({ name: "soak", scopes: ["organizations:read"], expiresInDays: 1 }),
      headers: { "content-type": "application/json", ...withSession }
    })
  )
  // The sign-ins are another person's: one account signing in sixteen times a second (the limits are
  // raised) would churn its own sessions past MAX_SESSIONS_PER_USER and end the one the reads use.
  const signingIn = `soak-sign-in-${Date.now()}@example.com`
  yield* Effect.promise(() =>
    call(`${base}/api/v1/auth/sign-up`, json({ email: signingIn, password, name: "Soak sign-ins" }))
  )
  const requests = mix(session, String(token.body.token), organizationId, signingIn)

  yield* Effect.promise(() => run(base, requests, 3))
  const rssStart = cluster.instances.map((instance) => instance.current().rssMiB())
  const result = yield* Effect.promise(() => run(base, requests, seconds))
  const rssEnd = cluster.instances.map((instance) => instance.current().rssMiB())

  const failed = result.non2xx + result.errors + result.timeouts
  const codes = Object.entries(result.statusCodeStats ?? {})
    .map(([code, stats]) => `${code}: ${stats.count ?? 0}`)
    .join(", ")
  console.log(`
Soak: ${seconds} s, ${connections} connections (autocannon) → nginx 1 worker → 2 instances → one PostgreSQL
Mix of ${requests.length} requests cycled per connection: 11 catalog (lists, details, searches, a batch, ask, health),
8 foundation reads (session and token), 1 sign-in (scrypt).

| requests | req/s (mean) | p50 | p90 | p99 | max | not 200 | errors |
|---|---|---|---|---|---|---|---|
| ${result.requests.total} | ${result.requests.average.toFixed(0)} | ${result.latency.p50} ms | ${result.latency.p90} ms | ${result.latency.p99} ms | ${result.latency.max} ms | ${result.non2xx} | ${result.errors} (${result.timeouts} timeouts) |

Status codes: ${codes}

| instance | RSS at start | RSS at end |
|---|---|---|
${cluster.instances.map((instance, i) => `| ${instance.name} | ${rssStart[i]?.toFixed(0)} MiB | ${rssEnd[i]?.toFixed(0)} MiB |`).join("\n")}
`)
  if (failed > 0) {
    console.log(`soak: ${failed} requests failed`)
    process.exitCode = 1
  }
})

await Effect.runPromise(Effect.scoped(program)).finally(() =>
  rmSync(scratch, { recursive: true, force: true })
)
