// A new folder for an embedded database, under the run's root (TempDir.ts): a copy of the run's
// initialised template when there is one (PgliteTemplate.ts), otherwise empty (PGlite initialises
// it on first start, as it does for a newcomer).
import { cpSync } from "node:fs"
import { tempDir } from "./TempDir.js"

export const embeddedDataDir = (prefix = "embedded-db-"): string => {
  const dir = tempDir(prefix)
  const template = process.env.TEST_PGLITE_TEMPLATE
  if (template !== undefined && template !== "") cpSync(template, dir, { recursive: true })
  return dir
}
