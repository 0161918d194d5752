// Authenticated `GET /api/v1/credential-context` (session cookie and bearer token) on PostgreSQL:
// the foundation service against a minimal node:http + pg handler doing the same lookups (the
// credential, the shared rate-limit counter, the organizations), measured with autocannon in one
// run, alternating baseline and service. Needs BENCH_DATABASE_URL or TEST_DATABASE_URL.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:54329/postgres npm run bench -- foundation-credential-context
import type * as Http from "node:http"
import { fileURLToPath } from "node:url"
import { type BaselineTools, serveBaseline } from "./_foundation/Baseline.js"
import {
  benchSession,
  CONNECTIONS,
  compare,
  comparePeer,
  DURATION_SECONDS,
  peerTableHeader,
  sameAnswers,
  tableHeader,
  withBenchDatabase
} from "./_foundation/Harness.js"

// ---------------------------------------------------------------------------------------------
// The baseline: the same three queries per request as the service, with no framework at all.
// ---------------------------------------------------------------------------------------------
const credentialContext = async (
  request: Http.IncomingMessage,
  response: Http.ServerResponse,
  { pool, send, bearer, session, limit }: BaselineTools
) => {
  const authorization = request.headers.authorization
  if (authorization !== undefined) {
    const token = await bearer(authorization)
    if (!token) return send(response, 401, { code: "UNAUTHORIZED" })
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
  const found = await session(request.headers.cookie)
  if (!found) return send(response, 401, { code: "UNAUTHORIZED" })
  if (!(await limit(`credential:${found.id}`))) return send(response, 429, { code: "TOO_MANY_REQUESTS" })
  const organizations = await pool.query(
    `SELECT o.id, o.name, m.role FROM members m JOIN organizations o ON o.id = m.organization_id
     WHERE m.user_id = $1 ORDER BY m.created_at, o.id`,
    [found.user_id]
  )
  return send(response, 200, {
    principalKind: "session",
    activeOrganizationId: found.active_organization_id,
    organizations: organizations.rows
  })
}

// ---------------------------------------------------------------------------------------------
// The driver.
// ---------------------------------------------------------------------------------------------
const main = () =>
  withBenchDatabase(async (context) => {
    const cookie = await benchSession(context)
    const organization = await context.post("/organizations", { name: "Bench Org" }, cookie)
    await context.post("/organizations", { name: "Second Org" }, cookie)
    const token = await context.post(
      `/organizations/${String(organization.json.id)}/tokens`,
      { name: "bench", scopes: ["organizations:read"], expiresInDays: 1 },
      cookie
    )
    const bearer = `Bearer ${String(token.json.token)}`
    const baseline = await context.startBaseline(fileURLToPath(import.meta.url))
    const path = "/api/v1/credential-context"
    const credentials = [
      ["session", { cookie }],
      ["bearer", { authorization: bearer }]
    ] as const
    // Both answer the same before anything is measured.
    for (const [, headers] of credentials) await sameAnswers(baseline, context.service, path, headers)
    const rows = credentials.map(([label, headers]) =>
      compare(label, baseline, context.service, path, headers)
    )
    // The peer's closest equivalent: its get-session, with the session cookie or the API key (which
    // it turns into a session of the key's owner).
    const { server: peer, setup } = await context.startBetterAuth(0)
    // Its shared limiter counts per client address, which it reads from this header.
    const forwarded = { "x-forwarded-for": "127.0.0.1" }
    const peerCredentials = [
      ["session — get-session, cookie", { cookie }, { cookie: setup.cookie, ...forwarded }],
      [
        "bearer — get-session, API key",
        { authorization: bearer },
        { "x-api-key": setup.apiKey, ...forwarded }
      ]
    ] as const
    const peerRows = peerCredentials.map(([label, headers, peerHeaders]) =>
      comparePeer(label, context.service, path, headers, peer, "/api/auth/get-session", peerHeaders)
    )
    console.log(
      `\nGET ${path}, ${CONNECTIONS} connections, ${DURATION_SECONDS} s per run, best of 2 alternating runs after a warm-up\n`
    )
    for (const line of [...tableHeader, ...rows]) console.log(line)
    console.log("")
    for (const line of [...peerTableHeader, ...peerRows]) console.log(line)
  })

if (process.argv[2] === "--serve-baseline") {
  serveBaseline(process.argv[3] ?? "", Number(process.argv[4]), credentialContext)
} else {
  await main()
}
