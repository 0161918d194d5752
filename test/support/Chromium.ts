// Where the browser tests find Chromium (Debian's package, or CHROMIUM_PATH), and why they skip
// without it; kept apart from Browser.ts so the skip report can read it without loading playwright.
import { existsSync } from "node:fs"

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

/** Why the browser tests cannot run here, or undefined when they can. */
export const browserUnavailable: string | undefined = existsSync(chromiumPath)
  ? undefined
  : `Chromium: none at ${chromiumPath} (install Debian's chromium package or set CHROMIUM_PATH)`
