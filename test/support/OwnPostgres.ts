// Vitest global setup: the PostgreSQL the tests run against besides PGlite. TEST_DATABASE_URL when it
// is given; otherwise, where PostgreSQL's server binaries are installed, a throwaway cluster of the
// run's own in the run's temporary root (TempRoot.ts), removed when the run ends, with TEST_PG_CTL
// set so the tests that stop and restart a server of their own run too. Without either, the
// PostgreSQL groups skip with the reason this sets (test/foundation/support/Backends.ts reads it).
import { join } from "node:path"
import { findPostgresBin, startPostgresServer } from "./PostgresServer.js"
import { ownClusterPrefix } from "./TempRoot.js"

export default async function setup(): Promise<(() => void) | undefined> {
  if ((process.env.TEST_DATABASE_URL ?? "") !== "") return undefined
  const bin = findPostgresBin()
  if (bin === undefined) {
    process.env.TEST_POSTGRES_MISSING =
      "PostgreSQL: no TEST_DATABASE_URL, and no PostgreSQL server binaries (initdb and pg_ctl on PATH or under /usr/lib/postgresql/*/bin) to start one: install PostgreSQL (Debian: apt-get install postgresql) or set TEST_DATABASE_URL to a server where the tests may create databases"
    return undefined
  }
  const pgCtl = join(bin, "pg_ctl")
  try {
    // Each test file creates its own databases, and several servers per file may be open at once.
    const server = await startPostgresServer(bin, `${ownClusterPrefix}${process.pid}-`, [
      "max_connections=200"
    ])
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
