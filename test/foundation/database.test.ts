// The database layer: migrations that are harmless when run again or by several instances at once,
// data that survives a restart of the embedded database, and 503 while PostgreSQL is down or too
// slow, with recovery and no restart of the service.
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it, layer, vi } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { layerClient } from "../../src/foundation/Database/Database.js"
import { migrations, runMigrations } from "../../src/foundation/Database/Migrations.js"
import { FoundationConfig } from "../../src/foundation/FoundationConfig.js"
import { housekeepingSweep } from "../../src/foundation/Housekeeping.js"
import { describeNeeding, whenMet } from "../support/Needs.js"
import { request, type TestResponse } from "../support/TestServer.js"
import {
  emptyDataDir,
  emptyPostgresDatabase,
  freshDataDir,
  freshPostgresDatabase,
  pgCtlUnavailable,
  postgresUnavailable,
  unmigratedDataDir,
  withClient
} from "./support/Backends.js"
import { call, foundationServer, sessionFrom, signUp } from "./support/FoundationClient.js"
import { postgresCluster } from "./support/PostgresCluster.js"

/** A database client (no server) configured by `env`. */
const client = (env: Record<string, string>) =>
  layerClient.pipe(
    Layer.provide(FoundationConfig.layer("http://127.0.0.1:0")),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
  )

const migrationCount = Object.keys(migrations).length

const tablesOf = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(
    sql<{ tableName: string }>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
    (rows) => rows.map((row) => row.tableName)
  )
)

const expectedTables = [
  "api_tokens",
  "effect_sql_migrations",
  "email_verifications",
  "invitations",
  "members",
  "notes",
  "oauth_access_tokens",
  "oauth_clients",
  "oauth_codes",
  "oauth_grants",
  "oauth_refresh_tokens",
  "organizations",
  "outbox",
  "password_credentials",
  "rate_limit_counters",
  "sessions",
  "signing_keys",
  "users"
]

// Each of these tests creates or reopens embedded databases (PGlite's initdb runs in WebAssembly),
// which takes 10–30 s each on a loaded two-core machine: more than the suite's default 30 s.
vi.setConfig({ testTimeout: 120_000 })

describe("migrations", () => {
  it.live("run on a new embedded database, then again, are harmless", () =>
    Effect.gen(function* () {
      const dir = yield* emptyDataDir
      const first = yield* runMigrations.pipe(Effect.provide(client({ DATA_DIR: dir })))
      expect(first.map(([id]) => id)).toHaveLength(migrationCount)
      const [second, tables] = yield* Effect.all([runMigrations, tablesOf]).pipe(
        Effect.provide(client({ DATA_DIR: dir }))
      )
      expect(second).toEqual([])
      expect(tables).toEqual(expectedTables)
    }).pipe(Effect.scoped)
  )

  it.live(
    "run by several instances at once on PostgreSQL, apply exactly once",
    whenMet([postgresUnavailable], () =>
      Effect.gen(function* () {
        const { url } = yield* emptyPostgresDatabase
        const results = yield* Effect.all(
          Array.from({ length: 4 }, () => runMigrations.pipe(Effect.provide(client({ DATABASE_URL: url })))),
          { concurrency: "unbounded" }
        )
        expect(results.map((ran) => ran.length).sort()).toEqual([0, 0, 0, migrationCount])
        const again = yield* runMigrations.pipe(Effect.provide(client({ DATABASE_URL: url })))
        expect(again).toEqual([])
        const rows = yield* withClient(
          url,
          async (c) => (await c.query("SELECT migration_id FROM effect_sql_migrations")).rows
        )
        expect(rows).toHaveLength(migrationCount)
      }).pipe(Effect.scoped)
    )
  )
})

describe("the embedded database", () => {
  it.live("runs beside the HTTP thread: a slow query does not stall the event loop", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      // Timer ticks every 10 ms while the database sleeps for 1.5 s: on the same thread they would
      // all wait for the query (a 0.6 s sleep made one 0.6 s late); beside it, none waits. The bound is
      // half the sleep, so a busy machine's ordinary delays cannot fail the test.
      let worstLag = 0
      let last = performance.now()
      const ticker = setInterval(() => {
        const now = performance.now()
        worstLag = Math.max(worstLag, now - last - 10)
        last = now
      }, 10)
      yield* sql`SELECT pg_sleep(1.5)`.pipe(Effect.ensuring(Effect.sync(() => clearInterval(ticker))))
      expect(worstLag).toBeLessThan(750)
    }).pipe(
      Effect.provide(Layer.unwrapScoped(Effect.map(freshDataDir, (dir) => client({ DATA_DIR: dir })))),
      Effect.scoped
    )
  )

  it.live("keeps its data across restarts of the service", () =>
    Effect.gen(function* () {
      const dir = yield* freshDataDir
      const database = Effect.succeed({ DATA_DIR: dir })
      const account = yield* signUp("persistent").pipe(Effect.provide(foundationServer(database)))
      const signedIn = yield* call("/auth/sign-in", {
        body: { email: account.email, password: account.password }
      }).pipe(Effect.provide(foundationServer(database)))
      expect(signedIn.status).toBe(200)
      expect(signedIn.json).toMatchObject({ user: { id: account.userId } })
    }).pipe(Effect.scoped)
  )
})

describeNeeding(postgresUnavailable)("housekeeping", () => {
  it.live(
    "removes long-ended sessions, old email tokens, delivered messages and past windows, and nothing else",
    () =>
      Effect.gen(function* () {
        const { url } = yield* freshPostgresDatabase
        yield* runMigrations.pipe(Effect.provide(client({ DATABASE_URL: url })))
        yield* withClient(url, async (c) => {
          await c.query("INSERT INTO users (id, email, name) VALUES ('u1', 'u1@example.com', 'U')")
          await c.query(`INSERT INTO sessions (id, token_hash, user_id, expires_at, revoked_at) VALUES
          ('old-expired', 'h1', 'u1', now() - interval '31 days', NULL),
          ('old-revoked', 'h2', 'u1', now() + interval '1 day', now() - interval '31 days'),
          ('recently-revoked', 'h3', 'u1', now() + interval '1 day', now() - interval '1 day'),
          ('live', 'h4', 'u1', now() + interval '1 day', NULL)`)
          await c.query(`INSERT INTO email_verifications (id, user_id, email, purpose, token_hash, expires_at) VALUES
          ('old', 'u1', 'u1@example.com', 'verify-email', 'e1', now() - interval '8 days'),
          ('fresh', 'u1', 'u1@example.com', 'verify-email', 'e2', now() + interval '1 day')`)
          await c.query(`INSERT INTO outbox (kind, recipient, delivered_at) VALUES
          ('verify-email', 'old@example.com', now() - interval '31 days'),
          ('verify-email', 'pending@example.com', NULL)`)
          await c.query(`INSERT INTO rate_limit_counters (key, window_start, count) VALUES
          ('old', now() - interval '2 hours', 3), ('current', now(), 1)`)
        })
        yield* housekeepingSweep.pipe(Effect.provide(client({ DATABASE_URL: url })))
        const left = yield* withClient(url, async (c) => ({
          sessions: (await c.query("SELECT id FROM sessions ORDER BY id")).rows.map((r) => r.id),
          verifications: (await c.query("SELECT id FROM email_verifications")).rows.map((r) => r.id),
          outbox: (await c.query("SELECT recipient FROM outbox")).rows.map((r) => r.recipient),
          counters: (await c.query("SELECT key FROM rate_limit_counters")).rows.map((r) => r.key)
        }))
        expect(left).toEqual({
          sessions: ["live", "recently-revoked"],
          verifications: ["fresh"],
          outbox: ["pending@example.com"],
          counters: ["current"]
        })
      }).pipe(Effect.scoped)
  )
})

describe("the embedded database's folder", () => {
  it.live("cannot be opened twice at once: the second opener fails with a clear message", () =>
    Effect.gen(function* () {
      const dir = yield* freshDataDir
      yield* Layer.build(client({ DATA_DIR: dir }))
      const second = yield* Effect.flip(Layer.build(client({ DATA_DIR: dir })))
      expect(second._tag).toBe("EmbeddedPostgresError")
      expect(second.message).toContain(`in use by process ${process.pid}`)
    }).pipe(Effect.scoped)
  )

  it.live("is taken over when the process that locked it is gone", () =>
    Effect.gen(function* () {
      const dir = yield* unmigratedDataDir
      // A pid far above any real one stands for a crashed owner.
      writeFileSync(join(dir, "foundation.lock"), "2147483646")
      const tables = yield* Effect.flatMap(runMigrations, () => tablesOf).pipe(
        Effect.provide(client({ DATA_DIR: dir }))
      )
      expect(tables).toContain("users")
    }).pipe(Effect.scoped)
  )
})

class Cluster extends Context.Tag("Cluster")<Cluster, Effect.Effect.Success<typeof postgresCluster>>() {}

/** Polls until `check` holds (the service reconnects on its own), for at most `seconds`. */
const eventually = <A, R>(attempt: Effect.Effect<A, never, R>, check: (a: A) => boolean, seconds = 15) =>
  Effect.gen(function* () {
    const deadline = Date.now() + seconds * 1000
    let last = yield* attempt
    while (!check(last) && Date.now() < deadline) {
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 200)))
      last = yield* attempt
    }
    return last
  })

describeNeeding(postgresUnavailable, pgCtlUnavailable)("an unavailable PostgreSQL", () => {
  const withCluster = Layer.unwrapScoped(
    Effect.map(postgresCluster, (cluster) =>
      foundationServer(Effect.succeed({ DATABASE_URL: cluster.url }), {
        DATABASE_CONNECT_TIMEOUT_MS: "1000",
        DATABASE_STATEMENT_TIMEOUT_MS: "500"
      }).pipe(Layer.merge(Layer.succeed(Cluster, cluster)))
    )
  )

  layer(withCluster, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("answers 503 with Retry-After while PostgreSQL is stopped, and recovers when it is back", () =>
      Effect.gen(function* () {
        const cluster = yield* Cluster
        const account = yield* signUp("outage")
        expect((yield* call("/profile", { session: account.session })).status).toBe(200)

        yield* cluster.stop
        const down = yield* call("/profile", { session: account.session })
        expect(down.status).toBe(503)
        expect(down.json).toEqual({
          defined: true,
          code: "SERVICE_UNAVAILABLE",
          status: 503,
          message: "The service is temporarily unavailable."
        })
        expect(Number(down.headers.get("retry-after"))).toBeGreaterThan(0)
        const signIn = yield* call("/auth/sign-in", {
          body: { email: account.email, password: account.password }
        })
        expect(signIn.status).toBe(503)
        const signUpDown = yield* call("/auth/sign-up", {
          body: { email: "down@example.com", password: "long enough password", name: "Down" }
        })
        expect(signUpDown.status).toBe(503)

        yield* cluster.start
        const back = yield* eventually(
          call("/profile", { session: account.session }),
          (r) => r.status === 200
        )
        expect(back.status).toBe(200)
        const again = yield* call("/auth/sign-in", {
          body: { email: account.email, password: account.password }
        })
        expect(again.status).toBe(200)
        expect(sessionFrom(again)).not.toBe("")
      })
    )

    it.effect(
      "the authorization server answers temporarily_unavailable (503), never invalid_client, while storage cannot answer",
      () =>
        Effect.gen(function* () {
          const cluster = yield* Cluster
          const registered = yield* request("/oauth/register", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              redirect_uris: ["https://app.example/callback"],
              token_endpoint_auth_method: "client_secret_basic"
            })
          })
          expect(registered.status).toBe(201)
          const client = registered.json as { client_id: string; client_secret: string }
          const basic = `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}`
          const post = (path: string, fields: Record<string, string>, authorization?: string) =>
            request(path, {
              method: "POST",
              headers: {
                "content-type": "application/x-www-form-urlencoded",
                ...(authorization === undefined ? {} : { authorization })
              },
              body: new URLSearchParams(fields).toString()
            })
          const attempts = [
            post("/oauth/revoke", { token: "for_unknown" }, basic),
            post("/oauth/revoke", { token: "for_unknown", client_id: "cli_unknown" }),
            post("/oauth/token", { grant_type: "refresh_token", refresh_token: "for_unknown" }, basic)
          ]
          const expectUnavailable = (answer: TestResponse, what: string) => {
            expect(answer.status, `${what}: ${answer.text}`).toBe(503)
            expect(answer.json, what).toMatchObject({ error: "temporarily_unavailable" })
            expect(Number(answer.headers.get("retry-after")), what).toBeGreaterThan(0)
          }

          // A table the client authentication reads, locked: each lookup outlives the statement timeout.
          const blocker = yield* Effect.acquireRelease(
            Effect.promise(async () => {
              const { Client } = await import("pg")
              const c = new Client({ connectionString: cluster.url })
              await c.connect()
              await c.query("BEGIN")
              await c.query("LOCK TABLE oauth_clients IN ACCESS EXCLUSIVE MODE")
              return c
            }),
            // Ended before PostgreSQL is stopped below; a second end is harmless.
            (c) => Effect.promise(() => c.end().catch(() => {}))
          )
          for (const [index, attempt] of attempts.entries())
            expectUnavailable(yield* attempt, `locked ${index}`)
          yield* Effect.promise(() => blocker.query("ROLLBACK").then(() => blocker.end()))

          // PostgreSQL stopped: the same, and registration too.
          yield* cluster.stop
          for (const [index, attempt] of attempts.entries())
            expectUnavailable(yield* attempt, `stopped ${index}`)
          expectUnavailable(
            yield* request("/oauth/register", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ redirect_uris: ["https://app.example/callback"] })
            }),
            "registration"
          )
          yield* cluster.start
          // Back: the client authenticates, and an unknown token is revoked quietly (RFC 7009).
          const back = yield* eventually(
            post("/oauth/revoke", { token: "for_unknown" }, basic),
            (r) => r.status === 200
          )
          expect(back.status).toBe(200)
        }).pipe(Effect.scoped)
    )

    it.effect("answers 503 when a query outlives the statement timeout, and works once it is free", () =>
      Effect.gen(function* () {
        const cluster = yield* Cluster
        const account = yield* signUp("slow")
        // Another connection holds a lock every session lookup needs.
        const blocker = yield* Effect.acquireRelease(
          Effect.promise(async () => {
            const { Client } = await import("pg")
            const c = new Client({ connectionString: cluster.url })
            await c.connect()
            await c.query("BEGIN")
            await c.query("LOCK TABLE sessions IN ACCESS EXCLUSIVE MODE")
            return c
          }),
          (c) => Effect.promise(() => c.query("ROLLBACK").then(() => c.end()))
        )
        const slow = yield* call("/profile", { session: account.session })
        expect(slow.status).toBe(503)
        expect(slow.json).toMatchObject({ code: "SERVICE_UNAVAILABLE" })
        yield* Effect.promise(() => blocker.query("ROLLBACK"))
        expect((yield* call("/profile", { session: account.session })).status).toBe(200)
      }).pipe(Effect.scoped)
    )
  })
})
