// Authenticated `GET /api/v1/credential-context` (session cookie and bearer token) on PostgreSQL:
// the foundation service against a minimal node:http + pg handler doing the same lookups (the
// credential, the shared rate-limit counter, the organizations), measured with autocannon in one
// run, alternating baseline and service. Needs BENCH_DATABASE_URL or TEST_DATABASE_URL.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:54329/postgres npm run bench -- foundation-credential-context
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { createHash, randomBytes } from "node:crypto"
import * as Http from "node:http"
import { createServer } from "node:net"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Pg from "pg"

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, "..")
const COOKIE = "__Secure-service.session_token"
const ORIGIN = "http://bench.test"
const RATE_LIMIT = 1_000_000
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32)

// ---------------------------------------------------------------------------------------------
// The baseline: the same three queries per request as the service, with no framework at all.
// ---------------------------------------------------------------------------------------------
const serveBaseline = async (databaseUrl: string, port: number) => {
  const pool = new Pg.Pool({ connectionString: databaseUrl, max: 10 })
  pool.on("error", () => {})
  const hash = (secret: string) => createHash("sha256").update(secret).digest("hex")
  const limit = async (key: string) => {
    const { rows } = await pool.query(
      `INSERT INTO rate_limit_counters AS c (key, window_start, count)
       VALUES ($1, to_timestamp(floor(extract(epoch FROM now()) / 60) * 60), 1)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN c.window_start = EXCLUDED.window_start THEN c.count + 1 ELSE 1 END,
         window_start = EXCLUDED.window_start
       RETURNING count`,
      [key]
    )
    return (rows[0]?.count ?? 0) <= RATE_LIMIT
  }
  const send = (response: Http.ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body)
    response.writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text)
    })
    response.end(text)
  }
  const handle = async (request: Http.IncomingMessage, response: Http.ServerResponse) => {
    const authorization = request.headers.authorization
    if (authorization !== undefined) {
      const match = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/.exec(authorization)
      if (!match?.[1]) return send(response, 401, { code: "UNAUTHORIZED" })
      const { rows } = await pool.query(
        `SELECT id, organization_id, scopes,
           (last_used_at IS NULL OR last_used_at < now() - interval '1 minute') AS stale
         FROM api_tokens WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > now()`,
        [hash(match[1])]
      )
      const token = rows[0]
      if (!token) return send(response, 401, { code: "UNAUTHORIZED" })
      if (token.stale)
        await pool.query("UPDATE api_tokens SET last_used_at = now() WHERE id = $1", [token.id])
      if (!(await limit(`credential:${token.id}`))) return send(response, 429, { code: "TOO_MANY_REQUESTS" })
      const organization = await pool.query("SELECT name FROM organizations WHERE id = $1", [
        token.organization_id
      ])
      return send(response, 200, {
        principalKind: "apiKey",
        organization: { id: token.organization_id, name: organization.rows[0]?.name },
        grantedScopes: token.scopes
      })
    }
    const cookie = /(?:^|;\s*)__Secure-service\.session_token=([^;]*)/.exec(request.headers.cookie ?? "")?.[1]
    if (!cookie) return send(response, 401, { code: "UNAUTHORIZED" })
    const { rows } = await pool.query(
      `SELECT s.id, s.user_id,
         (SELECT m.organization_id FROM members m
           WHERE m.organization_id = s.active_organization_id AND m.user_id = s.user_id) AS active_organization_id,
         s.last_seen_at < now() - interval '1 minute' AS stale
       FROM sessions s WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now()`,
      [hash(cookie)]
    )
    const session = rows[0]
    if (!session) return send(response, 401, { code: "UNAUTHORIZED" })
    if (session.stale) {
      await pool.query(
        "UPDATE sessions SET last_seen_at = now(), expires_at = now() + interval '30 days' WHERE id = $1",
        [session.id]
      )
    }
    if (!(await limit(`credential:${session.id}`))) return send(response, 429, { code: "TOO_MANY_REQUESTS" })
    const organizations = await pool.query(
      `SELECT o.id, o.name, m.role FROM members m JOIN organizations o ON o.id = m.organization_id
       WHERE m.user_id = $1 ORDER BY m.created_at, o.id`,
      [session.user_id]
    )
    return send(response, 200, {
      principalKind: "session",
      activeOrganizationId: session.active_organization_id,
      organizations: organizations.rows
    })
  }
  Http.createServer((request, response) => {
    handle(request, response).catch(() => send(response, 503, { code: "SERVICE_UNAVAILABLE" }))
  }).listen(port, "127.0.0.1", () => process.stdout.write("ready\n"))
}

// ---------------------------------------------------------------------------------------------
// The driver.
// ---------------------------------------------------------------------------------------------
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

const startProcess = (args: ReadonlyArray<string>, env: Record<string, string>, readyText: string) =>
  new Promise<ChildProcess>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"]
    })
    let output = ""
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes(readyText)) resolve(child)
    })
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}: ${output}`)))
  })

interface Measure {
  readonly requests: number
  readonly p50: number
  readonly p99: number
  readonly non2xx: number
}

const autocannon = (url: string, headers: Record<string, string>): Measure => {
  const args = [join(root, "node_modules/autocannon/autocannon.js"), "-j", "-c", String(CONNECTIONS)]
  args.push("-d", String(DURATION_SECONDS))
  for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}=${value}`)
  args.push(url)
  const result = JSON.parse(execFileSync(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 }).toString())
  return {
    requests: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors
  }
}

const main = async () => {
  const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
  if (!baseUrl) {
    console.error(
      "Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server this benchmark may use."
    )
    process.exit(2)
  }
  const name = `foundation_bench_${randomBytes(4).toString("hex")}`
  const admin = new Pg.Client({ connectionString: baseUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  const url = new URL(baseUrl)
  url.pathname = `/${name}`
  const databaseUrl = url.toString()
  const children: Array<ChildProcess> = []
  try {
    const servicePort = await freePort()
    const env = {
      DATABASE_URL: databaseUrl,
      PORT: String(servicePort),
      CATALOG_ENABLED: "false",
      PUBLIC_ORIGIN: ORIGIN,
      CREDENTIAL_RATE_LIMIT: String(RATE_LIMIT)
    }
    children.push(await startProcess(["src/main.ts"], env, "Listening on"))
    const service = `http://127.0.0.1:${servicePort}`
    const post = async (path: string, body: unknown, cookie?: string) => {
      const response = await fetch(`${service}/api/v1${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: ORIGIN, ...(cookie ? { cookie } : {}) },
        body: JSON.stringify(body)
      })
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
      return { json: (await response.json()) as Record<string, unknown>, headers: response.headers }
    }
    const signedUp = await post("/auth/sign-up", {
      email: "bench@example.com",
      password: "bench password",
      name: "Bench"
    })
    const session = /session_token=([^;]*)/.exec(signedUp.headers.get("set-cookie") ?? "")?.[1] ?? ""
    const cookie = `${COOKIE}=${session}`
    const organization = await post("/organizations", { name: "Bench Org" }, cookie)
    await post("/organizations", { name: "Second Org" }, cookie)
    const token = await post(
      `/organizations/${String(organization.json.id)}/tokens`,
      { name: "bench", scopes: ["organizations:read"], expiresInDays: 1 },
      cookie
    )
    const bearer = `Bearer ${String(token.json.token)}`

    const baselinePort = await freePort()
    children.push(
      await startProcess(
        [fileURLToPath(import.meta.url), "--serve-baseline", databaseUrl, String(baselinePort)],
        {},
        "ready"
      )
    )
    const baseline = `http://127.0.0.1:${baselinePort}`
    const path = "/api/v1/credential-context"

    // Both answer the same before anything is measured.
    for (const headers of [{ cookie }, { authorization: bearer }]) {
      const [a, b] = await Promise.all([
        fetch(`${service}${path}`, { headers }).then((r) => r.json()),
        fetch(`${baseline}${path}`, { headers }).then((r) => r.json())
      ])
      if (JSON.stringify(a) !== JSON.stringify(b))
        throw new Error(`Answers differ: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`)
    }

    const rows: Array<string> = []
    for (const [label, headers] of [
      ["session", { cookie }],
      ["bearer", { authorization: bearer }]
    ] as const) {
      // Warm-up, then baseline and service alternately, twice each; the better run of each counts.
      autocannon(`${baseline}${path}`, headers)
      autocannon(`${service}${path}`, headers)
      const runs = { baseline: [] as Array<Measure>, service: [] as Array<Measure> }
      for (let round = 0; round < 2; round++) {
        runs.baseline.push(autocannon(`${baseline}${path}`, headers))
        runs.service.push(autocannon(`${service}${path}`, headers))
      }
      const best = (ms: Array<Measure>) => ms.reduce((a, b) => (b.requests > a.requests ? b : a))
      const b = best(runs.baseline)
      const s = best(runs.service)
      if (b.non2xx + s.non2xx > 0)
        throw new Error(`Non-2xx answers during ${label}: ${b.non2xx} / ${s.non2xx}`)
      rows.push(
        `| ${label} | ${b.requests.toFixed(0)} | ${s.requests.toFixed(0)} | ${(s.requests / b.requests).toFixed(2)} | ${b.p50} / ${b.p99} | ${s.p50} / ${s.p99} |`
      )
    }
    console.log(
      `\nGET ${path}, ${CONNECTIONS} connections, ${DURATION_SECONDS} s per run, best of 2 alternating runs after a warm-up\n`
    )
    console.log(
      "| credential | baseline req/s | service req/s | service / baseline | baseline p50 / p99 ms | service p50 / p99 ms |"
    )
    console.log("|---|---|---|---|---|---|")
    for (const row of rows) console.log(row)
  } finally {
    for (const child of children) child.kill("SIGTERM")
    await new Promise((resolve) => setTimeout(resolve, 500))
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.end()
  }
}

if (process.argv[2] === "--serve-baseline") {
  await serveBaseline(process.argv[3] ?? "", Number(process.argv[4]))
} else {
  await main()
}
