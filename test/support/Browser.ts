// Headless Chromium (Debian's package) driven by playwright-core, for tests that use the pages as a
// person would. Where no Chromium is installed the browser tests skip, and the skip report at the
// end of the run says why (Chromium.ts, SkipReport.ts).
import { layer, type Vitest } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Request
} from "playwright-core"
import { browserUnavailable, chromiumFlags, chromiumPath } from "./Chromium.js"

export { browserUnavailable, chromiumPath }

/** One browser for the scope (a test file), closed with it. */
export const launchBrowser = Effect.acquireRelease(
  Effect.promise(() =>
    chromium.launch({ executablePath: chromiumPath, headless: true, args: [...chromiumFlags] })
  ),
  (browser: Browser) => Effect.promise(() => browser.close())
)

/**
 * One Chromium for a test file's layer: starting one takes seconds, a new context (what keeps the
 * tests apart: its own cookies, storage and cache) a few milliseconds.
 */
export class TestBrowser extends Context.Tag("TestBrowser")<TestBrowser, Browser>() {}

export const TestBrowserLive = Layer.scoped(TestBrowser, launchBrowser)

/**
 * One Chromium for a whole test file whose groups each start a server of their own: a group calls
 * `.layer(itsServer)` on what this returns and gets its server beside the file's browser, which is
 * launched before the first group runs and closed after the last (not once per group). When every
 * group of the file is skipped, the browser is not launched at all.
 */
export const fileBrowser = (): Pick<Vitest.MethodsNonLive<TestBrowser, true>, "layer"> => {
  // The outer layer's own `layer` function, taken when its body runs: @effect/vitest assigns each
  // group's methods onto one shared object, so calling `.layer` on that object later would stack a
  // group's server on the previous group's (which would start that server again).
  let groupLayer: Vitest.MethodsNonLive<TestBrowser, true>["layer"] | undefined
  layer(TestBrowserLive, { timeout: 120_000, excludeTestServices: true })((it) => {
    groupLayer = it.layer
  })
  if (groupLayer === undefined) throw new Error("@effect/vitest's layer did not call its body")
  return { layer: groupLayer }
}

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
