// The foundation's SQL client: a pool to the PostgreSQL of DATABASE_URL, or one connection to the
// embedded PGlite. The layer connects (retrying briefly, since a database often starts alongside the
// service), brings the schema up to date, and provides `SqlClient` and `PgClient`.

import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import * as Statement from "@effect/sql/Statement"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import * as Str from "effect/String"
import * as Pg from "pg"
import { ReadinessChecks } from "../../http/ServerRegistries.js"
import { metricsExported } from "../../observability/TelemetryConfig.js"
import { FoundationConfig, type FoundationSettings } from "../FoundationConfig.js"
import { type EmbeddedPostgresError, embeddedPostgres } from "./EmbeddedPostgres.js"
import { runMigrations } from "./Migrations.js"
import { measureStatements, observePool } from "./PoolMetrics.js"
import { DatabasePool } from "./UntracedStatements.js"

const INT8_OID = 20

/**
 * Counters (`bigint` columns: versions, outbox ids) come back as numbers: they stay far below 2^53,
 * and the contract types them as integers.
 */
const types: Pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8_OID
      ? (value: string) => Number(value)
      : Pg.types.getTypeParser(oid, format)) as Pg.CustomTypesConfig["getTypeParser"]
}

const poolOptions = (
  settings: FoundationSettings
): Effect.Effect<Pg.PoolConfig, EmbeddedPostgresError, Scope.Scope> =>
  Option.match(settings.databaseUrl, {
    onSome: (url) =>
      Effect.succeed({
        connectionString: Redacted.value(url),
        max: settings.databasePoolSize,
        idleTimeoutMillis: 30_000,
        connectionTimeoutMillis: Duration.toMillis(settings.databaseConnectTimeout),
        statement_timeout: Duration.toMillis(settings.databaseStatementTimeout),
        application_name: "foundation",
        types
      }),
    onNone: () =>
      Effect.map(embeddedPostgres(settings.dataDir, settings.embeddedSharedBuffers), ({ host, port }) => ({
        host,
        port,
        user: "postgres",
        database: "postgres",
        // PGlite is one session: one connection, kept open (reconnecting could race the socket
        // server's one-connection limit while it is still releasing the previous one).
        max: 1,
        idleTimeoutMillis: 0,
        connectionTimeoutMillis: Duration.toMillis(settings.databaseConnectTimeout),
        application_name: "foundation",
        types
      }))
  })

const openPool = (options: Pg.PoolConfig, measured: boolean) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const pool = new Pg.Pool(options)
        // With metrics exported, every statement of every client is timed, from the first one on.
        if (measured) pool.on("connect", measureStatements)
        // An idle connection dropped by the server must not crash the process; the pool replaces it.
        pool.on("error", () => {})
        try {
          await pool.query("SELECT 1")
          return pool
        } catch (cause) {
          await pool.end().catch(() => {})
          throw cause
        }
      },
      catch: (cause) => new SqlError({ cause, message: "Cannot connect to the database" })
    }).pipe(
      Effect.retry({ schedule: Schedule.exponential("200 millis"), times: 6 }),
      Effect.tapError((error) => Effect.logError(`${error.message}: ${describeCause(error.cause)}`))
    ),
    (pool) => Effect.promise(() => pool.end()).pipe(Effect.timeoutOption("2 seconds"))
  )

const describeCause = (cause: unknown): string =>
  cause instanceof Error ? cause.message : Str.isString(cause) ? cause : "unknown error"

/** How many distinct names a name transform remembers (ours are our columns' and fields' names). */
const namesRemembered = 4096

/**
 * A name transform that remembers its answers. The client renames every column of every row it
 * reads (`user_id` to `userId`): a page of 50 members is 300 conversions of a handful of names, each
 * a scan and a new string, when the same few names come back every time.
 */
const remembered = (transform: (name: string) => string): ((name: string) => string) => {
  const known = new Map<string, string>()
  return (name) => {
    const hit = known.get(name)
    if (hit !== undefined) return hit
    const renamed = transform(name)
    if (known.size < namesRemembered) known.set(name, renamed)
    return renamed
  }
}

/** The client, connected; without migrations (the bench baseline and migration tests use it too). */
export const layerClient: Layer.Layer<
  PgClient.PgClient | SqlClient.SqlClient | DatabasePool,
  SqlError | EmbeddedPostgresError,
  FoundationConfig
> = Layer.scopedContext(
  Effect.gen(function* () {
    const settings = yield* FoundationConfig
    const options = yield* poolOptions(settings)
    // A telemetry setting that cannot be honoured stops the start where telemetry is built, naming it.
    const measured = yield* Effect.orElseSucceed(metricsExported, () => false)
    const pool = yield* openPool(options, measured)
    yield* observePool(pool)
    const transformResultNames = remembered(Str.snakeToCamel)
    const client = yield* PgClient.fromPool({
      acquire: Effect.succeed(pool),
      applicationName: "foundation",
      transformResultNames,
      transformQueryNames: remembered(Str.camelToSnake)
    })
    // The client's own transforms of rows: names, and the keys of JSON values (`transformJson`).
    const columnValue = Statement.defaultTransforms(transformResultNames).value
    return Context.make(PgClient.PgClient, client).pipe(
      Context.add(SqlClient.SqlClient, client),
      Context.add(DatabasePool, {
        pool,
        columnName: transformResultNames,
        columnValue,
        columnParser: (dataTypeId) => types.getTypeParser(dataTypeId, "text")
      })
    )
  })
).pipe(Layer.provide(Reactivity.layer))

/** The client with the schema brought up to date before anything uses it. */
export const layerDatabase = Layer.effectDiscard(
  Effect.flatMap(runMigrations, (ran) =>
    ran.length === 0
      ? Effect.void
      : Effect.logInfo(`Database migrated: ${ran.map(([id, name]) => `${id}_${name}`).join(", ")}`)
  ).pipe(Effect.orDie)
).pipe(Layer.provideMerge(layerClient))

/**
 * Readiness (the server's `/readyz`): the database answers a trivial query. A pool that cannot
 * connect fails within DATABASE_CONNECT_TIMEOUT_MS, so a probe never waits on an outage.
 */
export const DatabaseReadiness = Layer.effectDiscard(
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    ;(yield* ReadinessChecks).add({
      name: "database",
      check: sql`SELECT 1`.pipe(
        Effect.asVoid,
        Effect.mapError(() => "the database does not answer"),
        Effect.withTracerEnabled(false)
      )
    })
  })
)
