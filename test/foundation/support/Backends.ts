// The databases the foundation tests run against: the embedded PGlite always, and the PostgreSQL
// of TEST_DATABASE_URL when it is set (each test file gets its own fresh database there).
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import * as Pg from "pg"
import { embeddedDataDir } from "../../support/EmbeddedDataDir.js"

export const postgresUrl = process.env.TEST_DATABASE_URL
export const hasPostgres = postgresUrl !== undefined && postgresUrl !== ""

/** Why the PostgreSQL groups skip, or undefined when they run (test/support/OwnPostgres.ts says why). */
export const postgresUnavailable: string | undefined = hasPostgres
  ? undefined
  : (process.env.TEST_POSTGRES_MISSING ??
    "PostgreSQL: TEST_DATABASE_URL is not set (a server where the tests may create databases)")

/** Why the groups that stop and restart a PostgreSQL of their own skip, or undefined when they run. */
export const pgCtlUnavailable: string | undefined =
  process.env.TEST_PG_CTL === undefined || process.env.TEST_PG_CTL === ""
    ? "a PostgreSQL of the test's own: TEST_PG_CTL is not set (the pg_ctl to start, stop and restart it with; set when the run starts its own PostgreSQL)"
    : undefined

/** A connection URL to the same server as TEST_DATABASE_URL, naming another database. */
export const withDatabase = (url: string, database: string): string => {
  const parsed = new URL(url)
  parsed.pathname = `/${database}`
  return parsed.toString()
}

/** Runs `f` with a plain client on `url` (test set-up and inspection only). */
export const withClient = <A>(url: string, f: (client: Pg.Client) => Promise<A>): Effect.Effect<A> =>
  Effect.promise(async () => {
    const client = new Pg.Client({ connectionString: url })
    await client.connect()
    try {
      return await f(client)
    } finally {
      await client.end()
    }
  })

/** A new database on the test server, a copy of `template`, dropped when the scope closes. */
const newPostgresDatabase = (template: string) =>
  Effect.acquireRelease(
    Effect.gen(function* () {
      if (postgresUrl === undefined) return yield* Effect.dieMessage("TEST_DATABASE_URL is not set")
      const name = `foundation_test_${randomBytes(6).toString("hex")}`
      yield* withClient(postgresUrl, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`))
      return { name, url: withDatabase(postgresUrl, name) }
    }),
    ({ name }) =>
      postgresUrl === undefined
        ? Effect.void
        : withClient(postgresUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
  )

/**
 * A new database with the service's schema, as a server leaves a new one: a copy of the run's
 * migrated template (test/support/PostgresTemplate.ts).
 */
export const freshPostgresDatabase = Effect.suspend(() =>
  newPostgresDatabase(process.env.TEST_PG_MIGRATED_TEMPLATE ?? "template1")
)

/** A new empty database (no schema), for tests of the migrations themselves. */
export const emptyPostgresDatabase = newPostgresDatabase("template1")

const removedAtClose = (make: () => string) =>
  Effect.acquireRelease(Effect.sync(make), (dir) =>
    Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )

/**
 * A new folder for an embedded database, removed when the scope closes: a copy of the run's
 * migrated template (test/support/PgliteTemplate.ts), as a server leaves a new folder.
 */
export const freshDataDir = removedAtClose(() => embeddedDataDir("foundation-test-"))

/** The same without the schema: PGlite initialised, no migration run. */
export const unmigratedDataDir = removedAtClose(() => embeddedDataDir("foundation-test-", "none"))

/** A new empty folder for an embedded database (PGlite initialises it), removed when the scope closes. */
export const emptyDataDir = removedAtClose(() => mkdtempSync(join(tmpdir(), "foundation-test-")))

export interface Backend {
  readonly name: string
  readonly skip: boolean
  /** Why this backend's groups skip here, or undefined when they run (for describeNeeding). */
  readonly missing: string | undefined
  /** Environment variables selecting a fresh database of this kind, valid for the scope. */
  readonly database: Effect.Effect<Record<string, string>, never, import("effect/Scope").Scope>
}

export const backends: ReadonlyArray<Backend> = [
  {
    name: "PGlite",
    skip: false,
    missing: undefined,
    database: Effect.map(freshDataDir, (dir) => ({ DATA_DIR: dir }))
  },
  {
    name: "PostgreSQL",
    skip: !hasPostgres,
    missing: postgresUnavailable,
    database: Effect.map(freshPostgresDatabase, ({ url }) => ({ DATABASE_URL: url }))
  }
]
