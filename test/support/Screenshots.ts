// Screenshots of the pages the browser tests check, for a person to look at: written to
// `.tmp/screenshots/` (gitignored) only when SCREENSHOTS=1, since nothing asserts on them and each
// full-page capture costs about a second of a loaded machine (`SCREENSHOTS=1 npx vitest run
// test/pages/console-account.test.ts`). The checks made beside them (axe, the phone width, focus)
// run either way.
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import type { Locator, Page } from "playwright-core"

export const screenshotsWanted = process.env.SCREENSHOTS === "1"

export const screenshotDir = join(process.cwd(), ".tmp", "screenshots")

/** Saves `target` as `.tmp/screenshots/<name>.png` when screenshots are wanted. */
export const saveScreenshot = async (
  target: Page | Locator,
  name: string,
  options: { readonly fullPage?: boolean } = {}
): Promise<void> => {
  if (!screenshotsWanted) return
  mkdirSync(screenshotDir, { recursive: true })
  await target.screenshot({ path: join(screenshotDir, `${name}.png`), ...options })
}
