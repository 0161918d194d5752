// Where the browser tests find Chromium (Debian's package, or CHROMIUM_PATH), how they start it, and
// why they skip without it; kept apart from Browser.ts so the skip report (and the benchmarks) can
// read it without loading playwright.
import { existsSync } from "node:fs"

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

/** Why the browser tests cannot run here, or undefined when they can. */
export const browserUnavailable: string | undefined = existsSync(chromiumPath)
  ? undefined
  : `Chromium: none at ${chromiumPath} (install Debian's chromium package or set CHROMIUM_PATH)`

/**
 * Without the background-networking flags Chromium calls Google's hosts at start, which this
 * machine's closed network refuses; the sandbox needs privileges a test runner (root) lacks.
 */
export const chromiumFlags: ReadonlyArray<string> = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-extensions"
]
