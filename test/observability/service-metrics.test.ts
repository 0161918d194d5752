// The service's own metrics on METRICS_PORT, beyond requests: rate-limit refusals by limit (the
// catalog's and the foundation's), the database pool and the duration of its statements, the outbox's
// backlog and failed deliveries, and the snapshot served and its age. One server with both features;
// each value is read before and after what should move it, and promtool accepts the text.
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Pg from "pg"
import { observePool } from "../../src/foundation/Database/PoolMetrics.js"
import {
  dbClientConnectionsPendingRequests,
  dbClientConnectionsUsage,
  labels,
  runObservers
} from "../../src/observability/ServiceMetrics.js"
import {
  freshDataDir,
  freshPostgresDatabase,
  hasPostgres,
  postgresUnavailable
} from "../foundation/support/Backends.js"
import { call, PUBLIC_ORIGIN, uniqueEmail } from "../foundation/support/FoundationClient.js"
import { buildFixtureSnapshot } from "../support/CatalogTestServer.js"
import { freePort } from "../support/FreePort.js"
import { whenMet } from "../support/Needs.js"
import { movedSince, prometheusUnavailable, promtoolCheck, sample, scrape } from "../support/Prometheus.js"
import { request, testServer } from "../support/TestServer.js"

class Observed extends Effect.Tag("Observed")<
  Observed,
  { readonly metricsPort: number; readonly snapshotId: string; readonly builtAt: string }
>() {}

// Metrics do not depend on the database: PostgreSQL when there is one, the embedded one otherwise.
const database = hasPostgres
  ? Effect.map(freshPostgresDatabase, ({ url }): Record<string, string> => ({ DATABASE_URL: url }))
  : Effect.map(freshDataDir, (dir): Record<string, string> => ({ DATA_DIR: dir }))

const measuredService = Layer.unwrapScoped(
  Effect.gen(function* () {
    const snapshot = yield* Effect.orDie(buildFixtureSnapshot())
    const metricsPort = yield* Effect.promise(freePort)
    // Nothing listens there: every delivery fails, and the message stays in the outbox.
    const mailPort = yield* Effect.promise(freePort)
    const manifest = JSON.parse(readFileSync(join(snapshot, "manifest.json"), "utf8")) as {
      id: string
      builtAt: string
    }
    return Layer.merge(
      testServer({
        CATALOG_DIR: snapshot,
        PUBLIC_ORIGIN,
        ...(yield* database),
        METRICS_PORT: String(metricsPort),
        TRUST_PROXY: "true",
        CATALOG_RATE_LIMIT: "2",
        AUTH_RATE_LIMIT: "1",
        AUTH_ADDRESS_RATE_LIMIT: "1000000",
        MAIL_URL: `smtp://127.0.0.1:${mailPort}`,
        OUTBOX_POLL_MS: "50",
        OUTBOX_RETRY_BASE_MS: "100"
      }),
      Layer.succeed(Observed, { metricsPort, snapshotId: manifest.id, builtAt: manifest.builtAt })
    )
  })
)

/** The sample's value, 0 when the series does not exist yet. */
const counted = (text: string, name: string, labels: Record<string, string> = {}) =>
  sample(text, name, labels) ?? 0

/** Scrapes until `ready` holds of the text (gauges of the outbox move when the worker has run). */
const scrapeUntil = (port: number, ready: (text: string) => boolean) =>
  Effect.gen(function* () {
    for (let attempt = 0; ; attempt++) {
      const { text } = yield* scrape(port)
      if (ready(text) || attempt === 100) return text
      yield* Effect.sleep("50 millis")
    }
  })

describe("the service's metrics", () => {
  layer(measuredService, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("refusals, the pool, statements, the outbox and the snapshot move as they should", () =>
      Effect.gen(function* () {
        const { metricsPort, snapshotId, builtAt } = yield* Observed
        // The counters are the process's (Effect's metric registry): test files that ran before in this
        // worker may have moved them, so each is read as a change since `before`.
        const before = (yield* scrape(metricsPort)).text
        const moved = (text: string, name: string, labels: Record<string, string> = {}) =>
          movedSince(before, text, name, labels)

        // The catalog's limit (2 a minute here) refuses a third request from one address.
        const statuses: Array<number> = []
        for (let i = 0; i < 3; i++)
          statuses.push(
            (yield* request("/v1/snapshot", { headers: { "x-forwarded-for": "198.51.100.7" } })).status
          )
        expect(statuses).toEqual([200, 200, 429])

        // The foundation's sign-in limit (1 a window per address and email) refuses the attempts after
        // the first; windows are aligned on the clock, so three attempts have two in one window.
        const email = uniqueEmail("refused")
        const attempts: Array<number> = []
        for (let i = 0; i < 3; i++)
          attempts.push(
            (yield* call("/auth/sign-in", { body: { email, password: "not the password" } })).status
          )
        expect(attempts[0]).toBe(401)
        const refusedSignIns = attempts.filter((status) => status === 429).length
        expect(refusedSignIns).toBeGreaterThanOrEqual(1)

        // A sign-up writes a verification message, which the unreachable mail server never takes.
        const signUp = yield* call("/auth/sign-up", {
          body: { email: uniqueEmail("waiting"), password: "correct horse battery", name: "Waiting" }
        })
        expect(signUp.status).toBe(200)

        const after = yield* scrapeUntil(
          metricsPort,
          (text) =>
            moved(text, "outbox_delivery_failures_total") >= 1 &&
            counted(text, "outbox_backlog_age_seconds") > 0
        )
        expect(moved(after, "rate_limit_refusals_total", { limit: "catalog" })).toBe(1)
        expect(moved(after, "rate_limit_refusals_total", { limit: "auth" })).toBe(refusedSignIns)

        // Statements are timed by operation; the sign-up inserted rows.
        const inserts = { db_system_name: "postgresql", db_operation_name: "INSERT" }
        expect(counted(after, "db_client_operation_duration_seconds_count", inserts)).toBeGreaterThan(
          counted(before, "db_client_operation_duration_seconds_count", inserts)
        )
        expect(after).toMatch(
          /^db_client_operation_duration_seconds_bucket\{.*db_operation_name="SELECT".*\} \d+/m
        )
        expect(after).not.toMatch(
          /^db_client_operation_duration_seconds\w*\{.*db_operation_name="(?!SELECT|INSERT|UPDATE|DELETE|WITH|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|SET|OTHER")/m
        )
        // The pool: its connections by state (the outbox's worker or this very collection may hold
        // one) and the statements waiting for one; the next test moves them one by one.
        const pool = { pool_name: "foundation" }
        const used = sample(after, "db_client_connections_usage", { ...pool, state: "used" })
        const idle = sample(after, "db_client_connections_usage", { ...pool, state: "idle" })
        expect((used ?? Number.NaN) + (idle ?? Number.NaN)).toBeGreaterThanOrEqual(1)
        expect(sample(after, "db_client_connections_pending_requests", pool)).toBeGreaterThanOrEqual(0)

        expect(counted(after, "outbox_backlog")).toBe(counted(before, "outbox_backlog") + 1)
        expect(moved(after, "outbox_delivery_failures_total")).toBeGreaterThanOrEqual(1)

        expect(sample(after, "catalog_snapshot_info", { catalog_snapshot_id: snapshotId })).toBe(1)
        const age = counted(after, "catalog_snapshot_age_seconds")
        // Since the manifest's builtAt, at the moment of the collection (a few seconds ago at most).
        const expected = (Date.now() - Date.parse(builtAt)) / 1000
        expect(age).toBeGreaterThan(expected - 60)
        expect(age).toBeLessThanOrEqual(expected)

        if (prometheusUnavailable === undefined) {
          const checked = yield* promtoolCheck(after)
          expect(checked.output).toBe("")
          expect(checked.code).toBe(0)
        }
      })
    )
  })
})

describe("the database pool's gauges", () => {
  it.scoped(
    "count connections in use and statements waiting for one, as the pool holds them",
    whenMet([postgresUnavailable], () =>
      Effect.gen(function* () {
        const { url } = yield* freshPostgresDatabase
        const pool = yield* Effect.acquireRelease(
          Effect.sync(() => new Pg.Pool({ connectionString: url, max: 1 })),
          (pool) => Effect.promise(() => pool.end())
        )
        yield* observePool(pool)
        const read = Effect.gen(function* () {
          yield* runObservers
          const gauge = (metric: typeof dbClientConnectionsUsage, tags: Record<string, string>) =>
            Effect.map(Metric.value(Metric.taggedWithLabels(metric, labels(tags))), (state) => state.value)
          const name = { "pool.name": "foundation" }
          return {
            used: yield* gauge(dbClientConnectionsUsage, { state: "used", ...name }),
            idle: yield* gauge(dbClientConnectionsUsage, { state: "idle", ...name }),
            waiting: yield* gauge(dbClientConnectionsPendingRequests, name)
          }
        })

        const held = yield* Effect.promise(() => pool.connect())
        expect(yield* read).toEqual({ used: 1, idle: 0, waiting: 0 })
        const queued = pool.query("SELECT 1")
        expect(yield* read).toEqual({ used: 1, idle: 0, waiting: 1 })
        held.release()
        yield* Effect.promise(() => queued)
        expect(yield* read).toEqual({ used: 0, idle: 1, waiting: 0 })
      })
    )
  )
})
