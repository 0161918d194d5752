// Vitest global setup: one embedded database folder, initialised once for the run, that the tests
// copy instead of initialising their own. PGlite's initdb runs in WebAssembly and costs seconds of
// CPU each time (over a minute on a loaded two-core machine), and the suite opens dozens of fresh
// embedded databases; copying the 40 MB folder costs a fraction of that. A copy is exactly what a
// new folder holds after PGlite's first start: the service still runs its migrations on it. The
// test that proves an empty folder becomes a database uses an empty one (database.test.ts).
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"

export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), "pglite-template-"))
  const db = await PGlite.create(dir)
  await db.close()
  process.env.TEST_PGLITE_TEMPLATE = dir
  return () => rmSync(dir, { recursive: true, force: true })
}
