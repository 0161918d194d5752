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

/**
 * One Chromium per worker process, launched when first asked for and kept for the test files after
 * (a worker keeps its modules from file to file: isolate: false). Starting one costs about 0.65 s of
 * CPU and the suite's groups asked for one over thirty times; a new context (what keeps the tests
 * apart: its own cookies, storage and cache) costs a few milliseconds. Launched again if it closed or
 * crashed; Playwright closes it when the process exits.
 */
let shared: Promise<Browser> | undefined
const sharedBrowser = (): Promise<Browser> => {
  if (shared === undefined) {
    const launching = chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: [...chromiumFlags]
    })
    const forget = () => {
      if (shared === launching) shared = undefined
    }
    launching.then((browser) => browser.on("disconnected", forget), forget)
    shared = launching
  }
  return shared
}

/**
 * The worker's browser for the scope. Nothing is closed with the scope but what the scope opened in
 * it: each context closes with its own scope (newContext, or the caller's release).
 */
export const launchBrowser: Effect.Effect<Browser> = Effect.promise(sharedBrowser)

/** The worker's browser as a layer (a test file's or a group's). */
export class TestBrowser extends Context.Tag("TestBrowser")<TestBrowser, Browser>() {}

export const TestBrowserLive = Layer.effect(TestBrowser, launchBrowser)

/**
 * One Chromium for a whole test file whose groups each start a server of their own: a group calls
 * `.layer(itsServer)` on what this returns and gets its server beside the file's browser (the
 * worker's, above). When every group of the file is skipped, no browser is asked for.
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
