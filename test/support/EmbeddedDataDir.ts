// A new folder for an embedded database, under the run's root (TempDir.ts): a copy of one of the
// run's templates when there are any (PgliteTemplate.ts), otherwise empty (PGlite initialises it on
// first start, and the service migrates it, as for a newcomer).
import { cpSync } from "node:fs"
import { tempDir } from "./TempDir.js"

/**
 * `schema`: "migrated" (the default) copies the folder with the service's migrations applied, as a
 * server leaves it; "none" copies the one without, for tests of the migrations or of a database
 * that lacks the schema.
 */
export const embeddedDataDir = (
  prefix = "embedded-db-",
  schema: "migrated" | "none" = "migrated"
): string => {
  const dir = tempDir(prefix)
  const template =
    schema === "migrated"
      ? (process.env.TEST_PGLITE_MIGRATED ?? process.env.TEST_PGLITE_TEMPLATE)
      : process.env.TEST_PGLITE_TEMPLATE
  if (template !== undefined && template !== "") cpSync(template, dir, { recursive: true })
  return dir
}
