// Delegated access on PostgreSQL: `GET /api/v1/organizations/{id}` with an API token and with an OAuth
// access token, and the token endpoint's refresh grant (rotation: the refresh token is spent and a new
// pair issued, in one transaction), the foundation service against a minimal node:http + pg handler
// doing the same lookups and writes, alternating baseline and service in one run. The reads are
// measured with autocannon; the refresh grant by a closed loop of chains (one grant per connection,
// each request presenting the refresh token the previous answer gave, whichever server gave it: both
// share the database). Needs BENCH_DATABASE_URL or TEST_DATABASE_URL.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:54329/postgres npm run bench -- foundation-oauth
import { createHash, randomBytes } from "node:crypto"
import * as Http from "node:http"
import { fileURLToPath } from "node:url"
import { type BaselineTools, serveBaseline } from "./_foundation/Baseline.js"
import {
  benchSession,
  CONNECTIONS,
  compare,
  cpuSeconds,
  DURATION_SECONDS,
  ORIGIN,
  RATE_LIMIT,
  type Server,
  sameAnswers,
  tableHeader,
  withBenchDatabase
} from "./_foundation/Harness.js"

const REDIRECT_URI = "http://127.0.0.1:9/callback"
const RESOURCE = `${ORIGIN}/api/v1`
const hash = (secret: string) => createHash("sha256").update(secret).digest("hex")
const secret = () => randomBytes(32).toString("base64url")

// ---------------------------------------------------------------------------------------------
// The baseline: the service's queries, with no framework at all.
// ---------------------------------------------------------------------------------------------

/** The bearer's organization and the person it acts for: an API token or an OAuth access token. */
const bearerOf = async (pool: BaselineTools["pool"], authorization: string) => {
  const token = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/.exec(authorization)?.[1]
  if (token === undefined) return undefined
  if (token.startsWith("foa_")) {
    const { rows } = await pool.query(
      `SELECT g.id AS key, g.user_id, g.organization_id, g.resource, t.scopes,
         (g.last_used_at IS NULL OR g.last_used_at < now() - interval '1 minute') AS stale
       FROM oauth_access_tokens t JOIN oauth_grants g ON g.id = t.grant_id
       WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > now() AND g.revoked_at IS NULL`,
      [hash(token)]
    )
    const row = rows[0]
    if (row === undefined || row.resource !== RESOURCE) return undefined
    if (row.stale) await pool.query("UPDATE oauth_grants SET last_used_at = now() WHERE id = $1", [row.key])
    return row as { key: string; user_id: string; organization_id: string; scopes: Array<string> }
  }
  const { rows } = await pool.query(
    `SELECT id AS key, created_by AS user_id, organization_id, scopes,
       (last_used_at IS NULL OR last_used_at < now() - interval '1 minute') AS stale
     FROM api_tokens WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > now()`,
    [hash(token)]
  )
  const row = rows[0]
  if (row === undefined) return undefined
  if (row.stale) await pool.query("UPDATE api_tokens SET last_used_at = now() WHERE id = $1", [row.key])
  return row as { key: string; user_id: string; organization_id: string; scopes: Array<string> }
}

const organizationGet = async (
  request: Http.IncomingMessage,
  response: Http.ServerResponse,
  tools: BaselineTools
) => {
  const { pool, send, limit } = tools
  const bearer = await bearerOf(pool, request.headers.authorization ?? "")
  if (bearer === undefined) return send(response, 401, { code: "UNAUTHORIZED" })
  if (!(await limit(`credential:${bearer.key}`))) return send(response, 429, { code: "TOO_MANY_REQUESTS" })
  const organizationId = decodeURIComponent((request.url ?? "").split("/").at(-1) ?? "")
  if (organizationId !== bearer.organization_id || !bearer.scopes.includes("organizations:read")) {
    return send(response, 403, { code: "FORBIDDEN" })
  }
  // The credential acts for its person, who must still be a member.
  const member = await pool.query(
    "SELECT id, role FROM members WHERE user_id = $1 AND organization_id = $2",
    [bearer.user_id, organizationId]
  )
  if (member.rows.length === 0) return send(response, 403, { code: "FORBIDDEN" })
  const { rows } = await pool.query(
    "SELECT id, name, slug, company_name, website, phone, address, version FROM organizations WHERE id = $1",
    [organizationId]
  )
  const o = rows[0]
  return send(response, 200, {
    id: o.id,
    name: o.name,
    slug: o.slug,
    companyName: o.company_name,
    website: o.website,
    phone: o.phone,
    address: o.address,
    version: Number(o.version)
  })
}

const readBody = (request: Http.IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = ""
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString()
    })
    request.on("end", () => resolve(body))
  })

const refreshGrant = async (
  request: Http.IncomingMessage,
  response: Http.ServerResponse,
  tools: BaselineTools
) => {
  const { pool, send, limit } = tools
  const form = new URLSearchParams(await readBody(request))
  const clientId = form.get("client_id") ?? ""
  const refreshToken = form.get("refresh_token") ?? ""
  if (form.get("grant_type") !== "refresh_token")
    return send(response, 400, { error: "unsupported_grant_type" })
  const client = await pool.query("SELECT id, token_endpoint_auth_method FROM oauth_clients WHERE id = $1", [
    clientId
  ])
  if (client.rows[0]?.token_endpoint_auth_method !== "none")
    return send(response, 401, { error: "invalid_client" })
  if (!(await limit(`oauth-token:${hash(clientId)}`)))
    return send(response, 429, { error: "too_many_requests" })
  const connection = await pool.connect()
  try {
    await connection.query("BEGIN")
    const { rows } = await connection.query(
      `SELECT r.id, r.grant_id, g.client_id, g.user_id, g.organization_id, g.scopes,
         r.used_at IS NOT NULL AS used,
         (r.expires_at <= now() OR r.revoked_at IS NOT NULL OR g.revoked_at IS NOT NULL) AS dead
       FROM oauth_refresh_tokens r JOIN oauth_grants g ON g.id = r.grant_id
       WHERE r.token_hash = $1 FOR UPDATE OF r`,
      [hash(refreshToken)]
    )
    const token = rows[0]
    const member =
      token === undefined
        ? { rows: [] }
        : await connection.query("SELECT id, role FROM members WHERE user_id = $1 AND organization_id = $2", [
            token.user_id,
            token.organization_id
          ])
    if (
      token === undefined ||
      token.client_id !== clientId ||
      token.used ||
      token.dead ||
      member.rows.length === 0
    ) {
      await connection.query("ROLLBACK")
      return send(response, 400, { error: "invalid_grant" })
    }
    await connection.query("UPDATE oauth_refresh_tokens SET used_at = now() WHERE id = $1", [token.id])
    await connection.query("UPDATE oauth_grants SET last_used_at = now() WHERE id = $1", [token.grant_id])
    const access = `foa_${secret()}`
    const refresh = `for_${secret()}`
    await connection.query(
      `INSERT INTO oauth_access_tokens (id, token_hash, grant_id, scopes, expires_at)
       VALUES ($1, $2, $3, $4::text[], now() + make_interval(secs => 3600))`,
      [`oat_${randomBytes(16).toString("base64url")}`, hash(access), token.grant_id, token.scopes]
    )
    await connection.query(
      `INSERT INTO oauth_refresh_tokens (id, token_hash, grant_id, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(days => 30))`,
      [`ort_${randomBytes(16).toString("base64url")}`, hash(refresh), token.grant_id]
    )
    await connection.query("COMMIT")
    response.setHeader("cache-control", "no-store")
    return send(response, 200, {
      access_token: access,
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: refresh,
      scope: [...token.scopes].sort().join(" ")
    })
  } catch (error) {
    await connection.query("ROLLBACK").catch(() => undefined)
    throw error
  } finally {
    connection.release()
  }
}

const baselineHandler = (
  request: Http.IncomingMessage,
  response: Http.ServerResponse,
  tools: BaselineTools
) =>
  request.method === "POST" && request.url === "/oauth/token"
    ? refreshGrant(request, response, tools)
    : organizationGet(request, response, tools)

// ---------------------------------------------------------------------------------------------
// The driver.
// ---------------------------------------------------------------------------------------------

interface Chain {
  refreshToken: string
}

interface LoopMeasure {
  readonly requests: number
  readonly p50: number
  readonly p99: number
  readonly failures: number
  readonly cpuMicros: number
}

/** A form POST over `agent`: the status and the body. */
const post = (agent: Http.Agent, url: string, body: string) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = Http.request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "content-length": Buffer.byteLength(body)
        }
      },
      (response) => {
        let text = ""
        response.on("data", (chunk: Buffer) => {
          text += chunk.toString()
        })
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text }))
        response.on("error", reject)
      }
    )
    request.on("error", reject)
    request.end(body)
  })

/** `chains` refresh loops in parallel against `server` for `seconds`; each keeps its newest token. */
const refreshLoop = async (
  server: Server,
  clientId: string,
  chains: ReadonlyArray<Chain>,
  seconds: number
): Promise<LoopMeasure> => {
  const latencies: Array<number> = []
  let failures = 0
  // Connections of this loop's own, kept alive within it (a pool shared across runs would meet
  // sockets the server closed while idle).
  const agent = new Http.Agent({ keepAlive: true, maxSockets: chains.length })
  const cpuBefore = cpuSeconds(server.pid)
  const started = performance.now()
  const end = started + seconds * 1000
  await Promise.all(
    chains.map(async (chain) => {
      while (performance.now() < end) {
        const sent = performance.now()
        const body = new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: chain.refreshToken,
          client_id: clientId
        }).toString()
        const response = await post(agent, `${server.url}/oauth/token`, body)
        latencies.push(performance.now() - sent)
        const json = response.status === 200 ? (JSON.parse(response.text) as { refresh_token?: string }) : {}
        if (json.refresh_token === undefined) {
          failures++
          return
        }
        chain.refreshToken = json.refresh_token
      }
    })
  )
  agent.destroy()
  const elapsed = (performance.now() - started) / 1000
  const cpu = cpuSeconds(server.pid) - cpuBefore
  latencies.sort((a, b) => a - b)
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0)
  return {
    requests: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    failures,
    cpuMicros: (cpu * 1e6) / Math.max(1, latencies.length)
  }
}

/** One warm-up each, then baseline and service alternately, twice, keeping the better of each. */
const compareRefresh = async (
  baseline: Server,
  service: Server,
  clientId: string,
  chains: ReadonlyArray<Chain>
) => {
  await refreshLoop(baseline, clientId, chains, 2)
  await refreshLoop(service, clientId, chains, 2)
  const runs = { baseline: [] as Array<LoopMeasure>, service: [] as Array<LoopMeasure> }
  for (let round = 0; round < 2; round++) {
    runs.baseline.push(await refreshLoop(baseline, clientId, chains, DURATION_SECONDS))
    runs.service.push(await refreshLoop(service, clientId, chains, DURATION_SECONDS))
  }
  const best = (ms: Array<LoopMeasure>) => ms.reduce((a, b) => (b.requests > a.requests ? b : a))
  const b = best(runs.baseline)
  const s = best(runs.service)
  const failures = [...runs.baseline, ...runs.service].reduce((sum, m) => sum + m.failures, 0)
  if (failures > 0) throw new Error(`Refresh answers other than 200: ${failures}`)
  return `| POST /oauth/token (refresh_token) | ${b.requests.toFixed(0)} | ${s.requests.toFixed(0)} | ${(s.requests / b.requests).toFixed(2)} | ${b.p50} / ${b.p99} | ${s.p50} / ${s.p99} | ${b.cpuMicros.toFixed(0)} / ${s.cpuMicros.toFixed(0)} |`
}

/** A grant by the code flow, the person's browser played with fetch: its tokens. */
const authorize = async (service: Server, cookie: string, clientId: string, organizationId: string) => {
  const verifier = secret()
  const challenge = createHash("sha256").update(verifier).digest("base64url")
  const query = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    state: "bench",
    code_challenge: challenge,
    code_challenge_method: "S256",
    scope: "organizations:read",
    resource: RESOURCE
  })
  const page = await (await fetch(`${service.url}/oauth/authorize?${query}`, { headers: { cookie } })).text()
  const form = new URLSearchParams(
    [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
      (m) => [m[1] ?? "", (m[2] ?? "").replaceAll("&amp;", "&")] as [string, string]
    )
  )
  form.set("organization", organizationId)
  // The box of the scope allowed, ticked as the consent page shows it.
  form.set("grant.organizations:read", "organizations:read")
  form.set("decision", "approve")
  const decided = await fetch(`${service.url}/oauth/authorize`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
    body: form.toString()
  })
  const code = new URL(decided.headers.get("location") ?? REDIRECT_URI).searchParams.get("code")
  if (code === null) throw new Error(`The decision answered ${decided.status}: ${await decided.text()}`)
  const tokens = await fetch(`${service.url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: verifier,
      resource: RESOURCE
    }).toString()
  })
  if (tokens.status !== 200) throw new Error(`The exchange answered ${tokens.status}: ${await tokens.text()}`)
  return (await tokens.json()) as { access_token: string; refresh_token: string }
}

const main = () =>
  withBenchDatabase(
    async (context) => {
      const cookie = await benchSession(context)
      const organization = await context.post("/organizations", { name: "Bench Org" }, cookie)
      const organizationId = String(organization.json.id)
      const apiToken = await context.post(
        `/organizations/${organizationId}/tokens`,
        { name: "bench", scopes: ["organizations:read"], expiresInDays: 1 },
        cookie
      )
      const registered = await fetch(`${context.service.url}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          client_name: "Bench app",
          redirect_uris: [REDIRECT_URI],
          token_endpoint_auth_method: "none"
        })
      })
      const clientId = String(((await registered.json()) as { client_id: string }).client_id)
      const grants = []
      for (let i = 0; i <= CONNECTIONS; i++)
        grants.push(await authorize(context.service, cookie, clientId, organizationId))
      const [reader, ...chainGrants] = grants
      const chains = chainGrants.map((grant) => ({ refreshToken: grant.refresh_token }))

      const baseline = await context.startBaseline(fileURLToPath(import.meta.url))
      const path = `/api/v1/organizations/${organizationId}`
      const credentials = [
        ["API token", { authorization: `Bearer ${String(apiToken.json.token)}` }],
        ["OAuth access token", { authorization: `Bearer ${reader?.access_token ?? ""}` }]
      ] as const
      // Both answer the same before anything is measured.
      for (const [, headers] of credentials) await sameAnswers(baseline, context.service, path, headers)
      const rows = credentials.map(([label, headers]) =>
        compare(`GET /organizations/{id}, ${label}`, baseline, context.service, path, headers)
      )
      rows.push(await compareRefresh(baseline, context.service, clientId, chains))
      console.log(
        `\n${CONNECTIONS} connections (the refresh grant: ${CONNECTIONS} chains, one grant each), ${DURATION_SECONDS} s per run, best of 2 alternating runs after a warm-up\n`
      )
      for (const line of [...tableHeader, ...rows]) console.log(line)
    },
    { OAUTH_TOKEN_RATE_LIMIT: String(RATE_LIMIT), OAUTH_REGISTRATION_RATE_LIMIT: String(RATE_LIMIT) }
  )

if (process.argv[2] === "--serve-baseline") {
  serveBaseline(process.argv[3] ?? "", Number(process.argv[4]), baselineHandler)
} else {
  await main()
}
