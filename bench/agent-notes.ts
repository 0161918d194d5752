// The notebook's tools on PostgreSQL: `tools/call list_notes` and `save_note` on /mcp/agent (OAuth
// bearer tokens from the code flow) beside `tools/call get_episode` on the public /mcp, and on
// /mcp/agent, in one run: one service over the demo podcast's snapshot and a throwaway database,
// autocannon driving every row with the same client mechanics, rounds alternating the rows after a
// warm-up. The per-minute note-write bound is raised so the bench measures cost, not refusals; the
// 500-note bound stays, and saves rotate over many organizations whose notebooks are emptied before
// each save run, so every notebook stays inside it (checked after each run, as is every answer).
// Needs BENCH_DATABASE_URL or TEST_DATABASE_URL; prints the Markdown table.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:54329/postgres npm run bench -- agent-notes
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import autocannon from "autocannon"
import * as oauth from "oauth4webapi"
import * as Pg from "pg"
import {
  type BenchContext,
  benchSession,
  CONNECTIONS,
  cpuSeconds,
  DURATION_SECONDS,
  ORIGIN,
  RATE_LIMIT,
  withBenchDatabase
} from "./_foundation/Harness.js"
import { ensureSnapshot } from "./_servers/StartCommand.js"

const snapshot = process.env.BENCH_SNAPSHOT ?? join(tmpdir(), "bench-snapshot-agents-content")
const rounds = Number(process.env.BENCH_ROUNDS ?? 2)
/** Organizations the saves rotate over: enough places (500 each) for a run's saves. */
const saveOrganizations = Number(process.env.BENCH_NOTE_ORGANIZATIONS ?? 64)
const NOTES_PER_ORGANIZATION = 500
const REDIRECT_URI = "http://127.0.0.1:9/callback"
const AGENT_RESOURCE = `${ORIGIN}/mcp/agent`

ensureSnapshot(snapshot)

// ---------------------------------------------------------------------------------------------
// Tokens for /mcp/agent: the code flow with oauth4webapi, the person's browser played with fetch.
// ---------------------------------------------------------------------------------------------

/** The authorization server as a client sees it, its public origin mapped to the service's address. */
const authorizationServer = async (serviceUrl: string) => {
  const mapped = (url: string) => (url.startsWith(ORIGIN) ? `${serviceUrl}${url.slice(ORIGIN.length)}` : url)
  const options = {
    [oauth.allowInsecureRequests]: true,
    [oauth.customFetch]: (
      url: string,
      init: oauth.CustomFetchOptions<string, oauth.ProtectedResourceRequestBody | URLSearchParams | string>
    ) =>
      fetch(mapped(url), {
        method: init.method,
        headers: init.headers,
        redirect: init.redirect,
        ...(init.body === undefined || init.body === null ? {} : { body: init.body })
      })
  } as const
  const issuer = new URL(ORIGIN)
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...options })
  )
  const client = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(
      as,
      {
        client_name: "Notebook bench",
        redirect_uris: [REDIRECT_URI],
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"]
      },
      options
    )
  )
  return { as, client, options, mapped }
}

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#96": "`" }
const unescapeHtml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39|#96);/g, (_, name: string) => entities[name] ?? "")

/** An access token for /mcp/agent: `cookie`'s person approves `organizationId` with write access. */
const agentToken = async (
  server: Awaited<ReturnType<typeof authorizationServer>>,
  cookie: string,
  organizationId: string
) => {
  const { as, client, options, mapped } = server
  const codeVerifier = oauth.generateRandomCodeVerifier()
  const state = oauth.generateRandomState()
  const url = new URL(as.authorization_endpoint ?? "")
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: REDIRECT_URI,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    scope: "notes:read notes:write",
    resource: AGENT_RESOURCE
  }).toString()
  const page = await fetch(mapped(url.toString()), { headers: { cookie }, redirect: "manual" })
  const pageText = await page.text()
  if (page.status !== 200) throw new Error(`consent page: ${page.status} ${pageText.slice(0, 300)}`)
  const form = new URLSearchParams(
    [...pageText.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
      (match): [string, string] => [unescapeHtml(match[1] ?? ""), unescapeHtml(match[2] ?? "")]
    )
  )
  form.set("organization", organizationId)
  // The boxes of the scopes allowed, ticked as the consent page shows them.
  form.set("grant.notes:read", "notes:read")
  form.set("grant.notes:write", "notes:write")
  form.set("decision", "approve")
  const decided = await fetch(mapped(`${ORIGIN}/oauth/authorize`), {
    method: "POST",
    headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
    redirect: "manual"
  })
  const location = decided.headers.get("location")
  if (decided.status !== 303 || location === null) throw new Error(`consent decision: ${decided.status}`)
  const params = oauth.validateAuthResponse(as, client, new URL(location), state)
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT_URI, codeVerifier, {
      additionalParameters: { resource: AGENT_RESOURCE },
      ...options
    })
  )
  return tokens.access_token
}

// ---------------------------------------------------------------------------------------------
// The rows and their load.
// ---------------------------------------------------------------------------------------------

interface Row {
  readonly surface: string
  readonly path: "/mcp" | "/mcp/agent"
  readonly tool: string
  readonly args: Record<string, unknown>
  /** The bearer tokens the requests rotate over (none on /mcp). */
  readonly tokens: ReadonlyArray<string>
  /** Before each run (the save row empties its notebooks). */
  readonly before?: () => Promise<void>
  /** After each run: fails unless the run's work was what it claims. */
  readonly after?: () => Promise<void>
}

const headersFor = (token: string | undefined): Record<string, string> => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25",
  ...(token === undefined ? {} : { authorization: `Bearer ${token}` })
})

const bodyFor = (row: Row) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: row.tool, arguments: row.args }
  })

/** One call, as an agent sees it: fails unless it is a tool result without isError. */
const callOnce = async (serviceUrl: string, row: Row, token: string | undefined) => {
  const response = await fetch(`${serviceUrl}${row.path}`, {
    method: "POST",
    headers: headersFor(token),
    body: bodyFor(row)
  })
  const json = (await response.json()) as { result?: { isError?: boolean; structuredContent?: unknown } }
  if (response.status !== 200 || json.result === undefined || json.result.isError === true) {
    throw new Error(`${row.surface}: ${response.status} ${JSON.stringify(json).slice(0, 300)}`)
  }
  return json.result.structuredContent
}

interface Measured {
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  /** CPU time of the service per answered request, in µs. */
  readonly cpuMicros: number
}

/**
 * Loads one row: every request goes through the same setupRequest (rotating the row's tokens) and
 * onResponse (counting tool errors), so all rows pay the same client mechanics.
 */
const load = async (service: BenchContext["service"], row: Row, duration: number): Promise<Measured> => {
  await row.before?.()
  const headerSets = row.tokens.length === 0 ? [headersFor(undefined)] : row.tokens.map(headersFor)
  let next = 0
  let toolErrors = 0
  const refusals: Array<string> = []
  const cpuBefore = cpuSeconds(service.pid)
  const result = await autocannon({
    url: `${service.url}${row.path}`,
    connections: CONNECTIONS,
    duration,
    requests: [
      {
        method: "POST",
        body: bodyFor(row),
        setupRequest: (request) => {
          const headers = headerSets[next++ % headerSets.length]
          return { ...request, headers }
        },
        onResponse: (status, body) => {
          if (body.includes('"isError":true')) toolErrors++
          if (status !== 200 && refusals.length < 3) refusals.push(`${status} ${body.slice(0, 300)}`)
        }
      }
    ]
  })
  const cpu = cpuSeconds(service.pid) - cpuBefore
  if (result.non2xx > 0 || result.errors > 0 || toolErrors > 0) {
    throw new Error(
      `${row.surface}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${toolErrors} tool errors\n${refusals.join("\n")}`
    )
  }
  await row.after?.()
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMicros: (cpu * 1e6) / Math.max(1, result.requests.total)
  }
}

const main = () =>
  withBenchDatabase(
    async (context) => {
      const cookie = await benchSession(context)
      const createOrganization = async (name: string) =>
        String((await context.post("/organizations", { name }, cookie)).json.id)
      const server = await authorizationServer(context.service.url)

      // The notebook list_notes reads: full (500 notes), saved through the tool itself.
      const readOrganization = await createOrganization("Notebook Org")
      const readToken = await agentToken(server, cookie, readOrganization)
      const fill: Row = {
        surface: "fill",
        path: "/mcp/agent",
        tool: "save_note",
        args: { slug: "7", paragraph_index: 0, text: "A note to read back." },
        tokens: [readToken]
      }
      for (let saved = 0; saved < NOTES_PER_ORGANIZATION; saved += 10) {
        await Promise.all(Array.from({ length: 10 }, () => callOnce(context.service.url, fill, readToken)))
      }

      const saveOrganizationIds: Array<string> = []
      const saveTokens: Array<string> = []
      for (let i = 0; i < saveOrganizations; i++) {
        const id = await createOrganization(`Writer Org ${i}`)
        saveOrganizationIds.push(id)
        saveTokens.push(await agentToken(server, cookie, id))
      }

      const db = new Pg.Client({ connectionString: context.databaseUrl })
      await db.connect()
      try {
        const rows: ReadonlyArray<Row> = [
          {
            surface: "`/mcp` `get_episode`",
            path: "/mcp",
            tool: "get_episode",
            args: { slug: "7" },
            tokens: []
          },
          {
            surface: "`/mcp/agent` `get_episode`",
            path: "/mcp/agent",
            tool: "get_episode",
            args: { slug: "7" },
            tokens: [readToken]
          },
          {
            surface: "`/mcp/agent` `list_notes` (first page of 50, notebook of 500)",
            path: "/mcp/agent",
            tool: "list_notes",
            args: {},
            tokens: [readToken]
          },
          {
            surface: `\`/mcp/agent\` \`save_note\` (paragraph 0; ${saveOrganizations} notebooks, each under 500)`,
            path: "/mcp/agent",
            tool: "save_note",
            args: {
              slug: "7",
              paragraph_index: 0,
              text: "Worth a follow-up: the part about the lighthouse."
            },
            tokens: saveTokens,
            before: async () => {
              await db.query("DELETE FROM notes WHERE organization_id = ANY($1)", [saveOrganizationIds])
            },
            after: async () => {
              const { rows: fullest } = await db.query(
                `SELECT count(*)::int AS count FROM notes WHERE organization_id = ANY($1)
                 GROUP BY organization_id ORDER BY count DESC LIMIT 1`,
                [saveOrganizationIds]
              )
              const most = Number(fullest[0]?.count ?? 0)
              if (most >= NOTES_PER_ORGANIZATION) {
                throw new Error(
                  `a notebook reached ${most} notes: saves may have been refused; raise BENCH_NOTE_ORGANIZATIONS`
                )
              }
            }
          }
        ]

        // Every row answers a real result before its speed means anything, and the two
        // get_episode rows the same one.
        const [publicEpisode, agentEpisode] = await Promise.all(
          rows.slice(0, 2).map((row) => callOnce(context.service.url, row, row.tokens[0]))
        )
        if (JSON.stringify(publicEpisode) !== JSON.stringify(agentEpisode)) {
          throw new Error("get_episode answers differently on /mcp and /mcp/agent")
        }
        const page = (await callOnce(context.service.url, rows[2] as Row, readToken)) as {
          items: ReadonlyArray<unknown>
        }
        if (page.items.length !== 50) throw new Error(`list_notes gave ${page.items.length} notes, not 50`)

        const best = new Map<Row, Measured>()
        for (const row of rows) await load(context.service, row, 2)
        // Rounds alternate the rows, so a slow moment of the machine does not fall on one of them.
        for (let round = 0; round < rounds; round++) {
          for (const row of rows) {
            const measured = await load(context.service, row, DURATION_SECONDS)
            const previous = best.get(row)
            if (previous === undefined || measured.requestsPerSecond > previous.requestsPerSecond)
              best.set(row, measured)
          }
        }

        const format = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 0 })
        const reference = best.get(rows[0] as Row)?.requestsPerSecond ?? 1
        const lines = [
          "| tool call | req/s | / `/mcp` `get_episode` | p50 / p99 ms | service CPU µs per call |",
          "|---|---|---|---|---|"
        ]
        for (const row of rows) {
          const measured = best.get(row)
          if (measured === undefined) continue
          lines.push(
            `| ${row.surface} | ${format(measured.requestsPerSecond)} | ${(measured.requestsPerSecond / reference).toFixed(2)} | ${measured.p50} / ${measured.p99} | ${format(measured.cpuMicros)} |`
          )
        }
        console.log(
          `\nautocannon, ${CONNECTIONS} connections, ${DURATION_SECONDS} s per row, best of ${rounds} alternating rounds after a 2 s warm-up; one service (pool of 10) on PostgreSQL over the demo podcast's snapshot; load average ${loadavg()[0]?.toFixed(2)} at the end.\n`
        )
        console.log(lines.join("\n"))
      } finally {
        await db.end()
      }
    },
    {
      CATALOG_ENABLED: "true",
      CATALOG_DIR: snapshot,
      CATALOG_RATE_LIMIT: "100000000",
      AGENT_NOTE_WRITES_PER_MINUTE: String(RATE_LIMIT),
      OAUTH_TOKEN_RATE_LIMIT: String(RATE_LIMIT),
      OAUTH_REGISTRATION_RATE_LIMIT: String(RATE_LIMIT)
    }
  )

await main()
