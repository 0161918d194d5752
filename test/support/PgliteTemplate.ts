// Vitest global setup: two embedded database folders, made once for the run, that the tests copy
// instead of making their own. PGlite's initdb runs in WebAssembly and costs seconds of CPU each time
// (over a minute on a loaded two-core machine), and the service's migrations on a new folder another
// second or so; the suite opens well over a hundred fresh embedded databases, and copying the 40 MB
// folder costs a fraction of that.
// - TEST_PGLITE_TEMPLATE: what a new folder holds after PGlite's first start, before any migration.
// - TEST_PGLITE_MIGRATED: that folder after the service's own migrations (the same code a server
//   runs at start, which finds nothing left to do on a copy).
// The migrations themselves are proven where it matters: on an empty folder and on PostgreSQL
// (database.test.ts), by every PostgreSQL server the tests start, and by this set-up, which fails the
// run if they fail on PGlite. Tests that need a folder without the schema copy the first template.
import { cpSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { layerDatabase } from "../../src/foundation/Database/Database.js"
import { FoundationConfig } from "../../src/foundation/FoundationConfig.js"

/** Runs the service's migrations on the embedded database in `dir`, then closes it. */
const migrate = (dir: string) =>
  Effect.runPromise(
    Effect.scoped(
      Layer.build(
        layerDatabase.pipe(
          Layer.provide(FoundationConfig.layer("http://127.0.0.1:0")),
          Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["DATA_DIR", dir]]))))
        )
      )
    )
  )

export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), "pglite-template-"))
  const db = await PGlite.create(dir)
  await db.close()
  const migrated = mkdtempSync(join(tmpdir(), "pglite-migrated-"))
  cpSync(dir, migrated, { recursive: true })
  await migrate(migrated)
  process.env.TEST_PGLITE_TEMPLATE = dir
  process.env.TEST_PGLITE_MIGRATED = migrated
  return () => {
    rmSync(dir, { recursive: true, force: true })
    rmSync(migrated, { recursive: true, force: true })
  }
}
