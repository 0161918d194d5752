// The interactive API references at /docs and /api/v1/docs, opened in a real browser: they render
// from what the service sends, with no request to a CDN or any other host, and without Scalar's
// toolbar (shown by default on localhost: the paid "Generate SDKs" and sharing by upload to Scalar).
import { expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ServerAddress } from "../../src/http/NodeServer.js"
import {
  browserUnavailable,
  newContext,
  offLoopback,
  TestBrowser,
  TestBrowserLive
} from "../support/Browser.js"
import { buildFixtureSnapshot } from "../support/CatalogTestServer.js"
import { embeddedDataDir } from "../support/EmbeddedDataDir.js"
import { describeNeeding } from "../support/Needs.js"
import { testServer } from "../support/TestServer.js"

const bothApis = Layer.unwrapEffect(
  Effect.map(buildFixtureSnapshot(), (catalog) =>
    testServer({ CATALOG_DIR: catalog, DATA_DIR: embeddedDataDir("reference-db-") })
  )
).pipe(Layer.orDie)

describeNeeding(browserUnavailable)("the API reference pages in a browser", () => {
  it.layer(Layer.merge(bothApis, TestBrowserLive))((it) => {
    for (const [path, title] of [
      ["/docs", "Podcast"],
      ["/api/v1/docs", "Foundation"]
    ] as const) {
      it.effect(`${path} renders the API's operations and asks nothing of any other host`, () =>
        Effect.scoped(
          Effect.gen(function* () {
            const address = yield* ServerAddress
            const browser = yield* TestBrowser
            const { context, requests } = yield* newContext(browser)
            const page = yield* Effect.promise(() => context.newPage())
            const response = yield* Effect.promise(() => page.goto(`${address.url}${path}`))
            expect(response?.status()).toBe(200)
            // The reference is a script-rendered page: wait until it shows the document's title.
            yield* Effect.promise(() => page.getByText(title).first().waitFor({ timeout: 15_000 }))
            yield* Effect.promise(() => page.waitForLoadState("networkidle"))
            expect(offLoopback(requests)).toEqual([])
            const shown = (text: string) =>
              Effect.promise(() => page.getByText(text, { exact: true }).count())
            expect(yield* shown("Generate SDKs")).toBe(0)
            expect(yield* shown("Share")).toBe(0)
            expect(yield* Effect.promise(() => page.getByLabel("Developer Tools").count())).toBe(0)
          })
        )
      )
    }
  })
})
