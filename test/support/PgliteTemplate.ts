// Vitest global setup: two embedded database folders, made once for the run, that the tests copy
// instead of making their own. PGlite's initdb runs in WebAssembly and costs seconds of CPU each time
// (over a minute on a loaded two-core machine), and the service's migrations on a new folder another
// second or so; the suite opens well over a hundred fresh embedded databases, and copying the 40 MB
// folder costs a fraction of that.
// - TEST_PGLITE_TEMPLATE: what a new folder holds after PGlite's first start, before any migration.
// - TEST_PGLITE_MIGRATED: that folder after the service's own migrations (the same code a server
//   runs at start, which finds nothing left to do on a copy).
// The migrations themselves are proven where it matters: on an empty folder and on PostgreSQL
// (database.test.ts), by the instances of test/scale on an empty PostgreSQL database, and by this
// set-up (and PostgresTemplate.ts), which fails the run if they fail. Tests that need a folder without the schema copy the first template.
import { cpSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { migrate } from "./MigratedDatabase.js"

export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), "pglite-template-"))
  const db = await PGlite.create(dir)
  await db.close()
  const migrated = mkdtempSync(join(tmpdir(), "pglite-migrated-"))
  cpSync(dir, migrated, { recursive: true })
  await migrate({ DATA_DIR: migrated })
  process.env.TEST_PGLITE_TEMPLATE = dir
  process.env.TEST_PGLITE_MIGRATED = migrated
  return () => {
    rmSync(dir, { recursive: true, force: true })
    rmSync(migrated, { recursive: true, force: true })
  }
}
