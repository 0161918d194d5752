// Tenant reads on PostgreSQL: `GET /api/v1/organizations/{id}` with a bearer token, and
// `members.list` (session) on an organization of 10,000 members, first page and a page deep in the
// list, against a minimal node:http + pg handler doing the same lookups with the same SQL (the
// credential, the shared rate-limit counter, the permission check, the keyset page), measured with
// autocannon in one run, alternating baseline and service. Needs BENCH_DATABASE_URL or
// TEST_DATABASE_URL.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:54329/postgres npm run bench -- foundation-tenants
import { createHmac, timingSafeEqual } from "node:crypto"
import type * as Http from "node:http"
import { fileURLToPath } from "node:url"
import * as Pg from "pg"
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

const MEMBERS = 10_000

// ---------------------------------------------------------------------------------------------
// The baseline.
// ---------------------------------------------------------------------------------------------
const organizationPath = /^\/api\/v1\/organizations\/([^/?]+)$/
const membersPath = /^\/api\/v1\/organizations\/([^/?]+)\/members(?:\?(.*))?$/

/** organizations.get for a bearer token: bound to this organization, with organizations:read. */
const getOrganization = async (
  id: string,
  request: Http.IncomingMessage,
  response: Http.ServerResponse,
  { pool, send, bearer, limit }: BaselineTools
) => {
  const token = await bearer(request.headers.authorization ?? "")
  if (!token) return send(response, 401, { code: "UNAUTHORIZED" })
  if (!(await limit(`credential:${token.id}`))) return send(response, 429, { code: "TOO_MANY_REQUESTS" })
  if (token.organization_id !== id || !token.scopes.includes("organizations:read"))
    return send(response, 403, { code: "FORBIDDEN" })
  const { rows } = await pool.query(
    `SELECT o.id, o.name, o.slug, o.company_name, o.website, o.phone, o.address, o.version
     FROM organizations o WHERE o.id = $1`,
    [id]
  )
  const row = rows[0]
  if (!row) return send(response, 404, { code: "NOT_FOUND" })
  return send(response, 200, {
    id: row.id,
    name: row.name,
    slug: row.slug,
    companyName: row.company_name,
    website: row.website,
    phone: row.phone,
    address: row.address,
    version: Number(row.version)
  })
}

/**
 * The service's cursor signature (src/foundation/Database/KeysetPage.ts), with the key the service
 * stored in the database: a 128-bit HMAC-SHA256 tag over the list and the position, before it.
 */
let cursorKey: Promise<Buffer> | undefined
const cursorTag = async (pool: Pg.Pool, list: string, payload: Buffer) => {
  cursorKey ??= pool
    .query("SELECT key FROM signing_keys WHERE name = 'page-cursors'")
    .then(({ rows }) => createHmac("sha256", String(rows[0]?.key)).update("foundation list cursors").digest())
  return createHmac("sha256", await cursorKey)
    .update(list)
    .update("\n")
    .update(payload)
    .digest()
    .subarray(0, 16)
}

/** members.list for a session: any member; keyset page of `limit` after the cursor's position. */
const listMembers = async (
  id: string,
  query: string,
  request: Http.IncomingMessage,
  response: Http.ServerResponse,
  { pool, send, session, limit: consume }: BaselineTools
) => {
  const found = await session(request.headers.cookie)
  if (!found) return send(response, 401, { code: "UNAUTHORIZED" })
  if (!(await consume(`credential:${found.id}`))) return send(response, 429, { code: "TOO_MANY_REQUESTS" })
  const params = new URLSearchParams(query)
  const limit = Number(params.get("limit") || 50)
  const cursor = params.get("cursor") || undefined
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    return send(response, 400, { code: "BAD_REQUEST" })
  const role = await pool.query("SELECT role FROM members WHERE user_id = $1 AND organization_id = $2", [
    found.user_id,
    id
  ])
  if (role.rows.length === 0) return send(response, 404, { code: "NOT_FOUND" })
  let after: [Date, string] | undefined
  const list = `members:${id}`
  if (cursor !== undefined) {
    const bytes = Buffer.from(cursor, "base64url")
    const payload = bytes.subarray(16)
    const tag = await cursorTag(pool, list, payload)
    if (bytes.length <= 16 || !timingSafeEqual(bytes.subarray(0, 16), tag))
      return send(response, 400, { code: "BAD_REQUEST" })
    const text = payload.toString()
    const dot = text.indexOf(".")
    if (dot < 1) return send(response, 400, { code: "BAD_REQUEST" })
    after = [new Date(Number(text.slice(0, dot))), text.slice(dot + 1)]
  }
  const { rows } = await pool.query(
    `SELECT m.id, m.user_id, u.name, u.email, m.role, m.created_at
     FROM members m JOIN users u ON u.id = m.user_id
     WHERE m.organization_id = $1 AND ($2::timestamptz IS NULL OR (m.created_at, m.id) > ($2::timestamptz, $3))
     ORDER BY m.created_at, m.id LIMIT $4`,
    [id, after?.[0] ?? null, after?.[1] ?? null, limit + 1]
  )
  const items = rows.slice(0, limit)
  const last = items[items.length - 1]
  const position = last ? Buffer.from(`${last.created_at.getTime()}.${last.id}`) : undefined
  const nextCursor =
    rows.length > limit && position
      ? Buffer.concat([await cursorTag(pool, list, position), position]).toString("base64url")
      : null
  return send(response, 200, {
    items: items.map((row) => ({
      id: row.id,
      userId: row.user_id,
      name: row.name,
      email: row.email,
      role: row.role
    })),
    nextCursor
  })
}

const route = async (request: Http.IncomingMessage, response: Http.ServerResponse, tools: BaselineTools) => {
  const url = request.url ?? ""
  const members = membersPath.exec(url)
  if (members?.[1])
    return listMembers(decodeURIComponent(members[1]), members[2] ?? "", request, response, tools)
  const organization = organizationPath.exec(url)
  if (organization?.[1]) return getOrganization(decodeURIComponent(organization[1]), request, response, tools)
  return tools.send(response, 404, { code: "NOT_FOUND" })
}

// ---------------------------------------------------------------------------------------------
// The driver.
// ---------------------------------------------------------------------------------------------

/** 10,000 members joined one millisecond apart after the owner (written directly: sign-ups would take minutes). */
const addMembers = async (databaseUrl: string, organizationId: string) => {
  const client = new Pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await client.query(
      `INSERT INTO users (id, email, name, email_verified)
       SELECT 'usr_bench_' || i, 'member' || i || '@bench.example', 'Member ' || i, true
       FROM generate_series(1, $1::int) AS i`,
      [MEMBERS]
    )
    await client.query(
      `INSERT INTO members (id, organization_id, user_id, role, created_at)
       SELECT 'mem_bench_' || lpad(i::text, 6, '0'), $1, 'usr_bench_' || i,
         CASE WHEN i % 100 = 0 THEN 'admin' ELSE 'member' END,
         date_trunc('milliseconds', now()) + make_interval(secs => i / 1000.0)
       FROM generate_series(1, $2::int) AS i`,
      [organizationId, MEMBERS]
    )
    await client.query("ANALYZE users; ANALYZE members")
  } finally {
    await client.end()
  }
}

const main = () =>
  withBenchDatabase(async (context) => {
    const cookie = await benchSession(context)
    const organization = await context.post("/organizations", { name: "Bench Org" }, cookie)
    const organizationId = String(organization.json.id)
    const token = await context.post(
      `/organizations/${organizationId}/tokens`,
      { name: "bench", scopes: ["organizations:read"], expiresInDays: 1 },
      cookie
    )
    await addMembers(context.databaseUrl, organizationId)
    // A cursor deep in the list (after about 9,900 members), as a client paging through would hold.
    let deepCursor = ""
    for (let page = 0; page < 99; page++) {
      const response = await fetch(
        `${context.service.url}/api/v1/organizations/${organizationId}/members?limit=100&cursor=${deepCursor}`,
        { headers: { cookie } }
      )
      deepCursor = String(((await response.json()) as { nextCursor: string | null }).nextCursor)
    }
    const baseline = await context.startBaseline(fileURLToPath(import.meta.url))
    const bearer = { authorization: `Bearer ${String(token.json.token)}` }
    const cases = [
      ["organizations.get, bearer", `/api/v1/organizations/${organizationId}`, bearer],
      [
        "members.list, first page (50 of 10,001)",
        `/api/v1/organizations/${organizationId}/members`,
        { cookie }
      ],
      [
        "members.list, limit 100 after ~9,900",
        `/api/v1/organizations/${organizationId}/members?limit=100&cursor=${deepCursor}`,
        { cookie }
      ]
    ] as const
    // Both answer the same before anything is measured.
    for (const [, path, headers] of cases) await sameAnswers(baseline, context.service, path, headers)
    const rows = cases.map(([label, path, headers]) =>
      compare(label, baseline, context.service, path, headers)
    )
    // The peer's closest equivalents, as the owner: the full organization read with an API key (of
    // an organization of one member: its answer lists the members and invitations too), and the
    // first page of 50 members (with the total count it always computes).
    const { server: peer, setup } = await context.startBetterAuth(MEMBERS)
    // Its shared limiter counts per client address, which it reads from this header.
    const forwarded = { "x-forwarded-for": "127.0.0.1" }
    const peerRows = [
      comparePeer(
        "organizations.get, bearer — get-full-organization, API key",
        context.service,
        `/api/v1/organizations/${organizationId}`,
        bearer,
        peer,
        `/api/auth/organization/get-full-organization?organizationId=${setup.smallOrganizationId}`,
        { "x-api-key": setup.apiKey, ...forwarded }
      ),
      comparePeer(
        "members.list, first page — list-members, limit 50",
        context.service,
        `/api/v1/organizations/${organizationId}/members`,
        { cookie },
        peer,
        `/api/auth/organization/list-members?organizationId=${setup.largeOrganizationId}&limit=50`,
        { cookie: setup.cookie, ...forwarded }
      )
    ]
    console.log(
      `\n${CONNECTIONS} connections, ${DURATION_SECONDS} s per run, best of 2 alternating runs after a warm-up\n`
    )
    for (const line of [...tableHeader, ...rows]) console.log(line)
    console.log("")
    for (const line of [...peerTableHeader, ...peerRows]) console.log(line)
  })

if (process.argv[2] === "--serve-baseline") {
  serveBaseline(process.argv[3] ?? "", Number(process.argv[4]), route)
} else {
  await main()
}
