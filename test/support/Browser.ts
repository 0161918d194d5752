// Headless Chromium (Debian's package) driven by playwright-core, for tests that use the pages as a
// person would. Where no Chromium is installed the browser tests skip, saying why, once per file.
import { existsSync } from "node:fs"
import * as Effect from "effect/Effect"
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Request
} from "playwright-core"

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

/** Why the browser tests cannot run here, or undefined when they can. */
export const browserUnavailable: string | undefined = existsSync(chromiumPath)
  ? undefined
  : `no Chromium at ${chromiumPath}: install Debian's chromium package or set CHROMIUM_PATH`

if (browserUnavailable !== undefined) console.warn(`Skipping browser tests: ${browserUnavailable}`)

/**
 * Without the background-networking flags Chromium calls Google's hosts at start, which this
 * machine's closed network refuses; the sandbox needs privileges a test runner (root) lacks.
 */
const flags = [
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

/** One browser for the scope (a test file), closed with it. */
export const launchBrowser = Effect.acquireRelease(
  Effect.promise(() => chromium.launch({ executablePath: chromiumPath, headless: true, args: flags })),
  (browser: Browser) => Effect.promise(() => browser.close())
)

/** A fresh context (its own cookies) that records every request the pages make. */
export interface RecordingContext {
  readonly context: BrowserContext
  /** Every URL the context's pages requested, in order. */
  readonly requests: Array<string>
}

export const newContext = (browser: Browser, options: BrowserContextOptions = {}) =>
  Effect.acquireRelease(
    Effect.promise(async (): Promise<RecordingContext> => {
      const context = await browser.newContext(options)
      const requests: Array<string> = []
      context.on("request", (request: Request) => requests.push(request.url()))
      return { context, requests }
    }),
    ({ context }) => Effect.promise(() => context.close())
  )

/** The requests that went anywhere but loopback (the pages must need nothing from outside). */
export const offLoopback = (requests: ReadonlyArray<string>): Array<string> =>
  requests.filter((url) => {
    if (url.startsWith("data:") || url.startsWith("about:")) return false
    try {
      const host = new URL(url).hostname
      return !(host === "127.0.0.1" || host === "localhost" || host === "[::1]")
    } catch {
      return true
    }
  })
