// Vitest global setup: every temporary folder the tests make (snapshots, fixture podcasts, damaged
// copies) goes under one root that is removed when the run ends, so test runs leave nothing behind.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "podcast-platform-tests-"))
  process.env.TEST_TMP_ROOT = root
  return () => rmSync(root, { recursive: true, force: true })
}
