// The peer in the foundation benchmarks: Better Auth (with its organization and API-key plugins) on
// its own database of the same PostgreSQL, in its own process, set up with what our service has in
// the bench: an owner with a session, a small organization and an API key, and an organization of
// `members` members written directly (as ours are). Its limiters run and never refuse, as ours do:
// the shared limiter in the database (ours are shared across instances too) and the key's own.
//
//   node --import tsx bench/_foundation/BetterAuthServer.ts <databaseUrl> <port> <members> <setupFile>
import { writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { apiKey } from "@better-auth/api-key"
import { betterAuth } from "better-auth"
import { getMigrations } from "better-auth/db/migration"
import { toNodeHandler } from "better-auth/node"
import { organization } from "better-auth/plugins"
import * as Pg from "pg"
import { RATE_LIMIT } from "./Harness.js"

/** What the driver needs to call Better Auth as the owner. */
export interface BetterAuthSetup {
  readonly url: string
  /** The session cookie header value. */
  readonly cookie: string
  /** The API key (`x-api-key`), acting for the owner. */
  readonly apiKey: string
  /** An organization with the owner only. */
  readonly smallOrganizationId: string
  /** The organization with `members` more members. */
  readonly largeOrganizationId: string
}

const serve = async (databaseUrl: string, port: number, members: number, setupFile: string) => {
  const pool = new Pg.Pool({ connectionString: databaseUrl, max: 10 })
  pool.on("error", () => {})
  const baseURL = `http://127.0.0.1:${port}`
  const auth = betterAuth({
    database: pool,
    baseURL,
    secret: "bench-secret-for-better-auth-0123456789abcdef",
    telemetry: { enabled: false },
    emailAndPassword: { enabled: true },
    rateLimit: { enabled: true, window: 60, max: RATE_LIMIT, storage: "database" },
    plugins: [
      organization(),
      apiKey({
        enableSessionForAPIKeys: true,
        rateLimit: { enabled: true, timeWindow: 60_000, maxRequests: RATE_LIMIT }
      })
    ]
  })
  const { runMigrations } = await getMigrations(auth.options)
  await runMigrations()

  const signedUp = await auth.api.signUpEmail({
    body: { email: "bench@example.com", password: "bench password", name: "Bench" },
    returnHeaders: true
  })
  const cookie = (signedUp.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
  const headers = new Headers({ cookie })
  const small = await auth.api.createOrganization({ body: { name: "Bench Org", slug: "bench-org" }, headers })
  const large = await auth.api.createOrganization({ body: { name: "Large Org", slug: "large-org" }, headers })
  const key = await auth.api.createApiKey({ body: { userId: signedUp.response.user.id, name: "bench" } })
  if (!small || !large) throw new Error("Better Auth did not create the organizations")
  const client = await pool.connect()
  try {
    await client.query(
      `INSERT INTO "user" (id, email, name, "emailVerified", "createdAt", "updatedAt")
       SELECT 'usr_bench_' || i, 'member' || i || '@bench.example', 'Member ' || i, true, now(), now()
       FROM generate_series(1, $1::int) AS i`,
      [members]
    )
    await client.query(
      `INSERT INTO member (id, "organizationId", "userId", role, "createdAt")
       SELECT 'mem_bench_' || lpad(i::text, 6, '0'), $1, 'usr_bench_' || i,
         CASE WHEN i % 100 = 0 THEN 'admin' ELSE 'member' END,
         date_trunc('milliseconds', now()) + make_interval(secs => i / 1000.0)
       FROM generate_series(1, $2::int) AS i`,
      [large.id, members]
    )
    await client.query(`ANALYZE "user"; ANALYZE member`)
  } finally {
    client.release()
  }
  const setup: BetterAuthSetup = {
    url: baseURL,
    cookie,
    apiKey: key.key,
    smallOrganizationId: small.id,
    largeOrganizationId: large.id
  }
  writeFileSync(setupFile, JSON.stringify(setup))
  createServer(toNodeHandler(auth)).listen(port, "127.0.0.1", () => process.stdout.write("ready\n"))
}

await serve(process.argv[2] ?? "", Number(process.argv[3]), Number(process.argv[4]), process.argv[5] ?? "")
