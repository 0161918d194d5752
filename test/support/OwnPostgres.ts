// Vitest global setup: the PostgreSQL the tests run against besides PGlite. TEST_DATABASE_URL when it
// is given; otherwise, where PostgreSQL's server binaries are installed, a throwaway cluster of the
// run's own in the system's temporary folder, removed when the run ends, with TEST_PG_CTL set so the
// tests that stop and restart a server of their own run too. Without either, the PostgreSQL groups
// skip with the reason this sets (test/foundation/support/Backends.ts reads it).
import { readdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { destroyPostgresServer, findPostgresBin, startPostgresServer } from "./PostgresServer.js"

const prefix = "podcast-platform-pg-"

/** Removes the clusters of earlier runs that ended without their teardown (the run was killed). */
const removeAbandoned = (pgCtl: string) => {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(/^podcast-platform-pg-(\d+)-/.exec(name)?.[1])
    if (!Number.isInteger(pid) || pid === process.pid) continue
    try {
      process.kill(pid, 0)
    } catch {
      destroyPostgresServer(pgCtl, join(tmpdir(), name))
    }
  }
}

export default async function setup(): Promise<(() => void) | undefined> {
  if ((process.env.TEST_DATABASE_URL ?? "") !== "") return undefined
  const bin = findPostgresBin()
  if (bin === undefined) {
    process.env.TEST_POSTGRES_MISSING =
      "PostgreSQL: no TEST_DATABASE_URL, and no PostgreSQL server binaries (initdb and pg_ctl on PATH or under /usr/lib/postgresql/*/bin) to start one: install PostgreSQL (Debian: apt-get install postgresql) or set TEST_DATABASE_URL to a server where the tests may create databases"
    return undefined
  }
  const pgCtl = join(bin, "pg_ctl")
  removeAbandoned(pgCtl)
  try {
    // Each test file creates its own databases, and several servers per file may be open at once.
    const server = await startPostgresServer(bin, `${prefix}${process.pid}-`, ["max_connections=200"])
    process.env.TEST_DATABASE_URL = server.url
    process.env.TEST_PG_CTL ??= pgCtl
    console.log(`PostgreSQL for the tests: a cluster of this run's own on 127.0.0.1:${server.port} (${bin})`)
    return () => server.destroy()
  } catch (error) {
    const said = error instanceof Error ? error.message.split("\n")[0] : String(error)
    process.env.TEST_POSTGRES_MISSING = `PostgreSQL: no TEST_DATABASE_URL, and a cluster of the run's own with ${bin} did not start (${said}): set TEST_DATABASE_URL to a server where the tests may create databases`
    return undefined
  }
}
