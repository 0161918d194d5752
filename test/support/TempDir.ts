// A fresh temporary folder under the run's root (see TempRoot.ts), which the run removes at its end.
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export const tempDir = (prefix: string): string =>
  mkdtempSync(join(process.env.TEST_TMP_ROOT ?? tmpdir(), prefix))
