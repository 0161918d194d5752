// The front door: `GET /` is a page for people and a JSON index for API clients, and the page needs
// nothing from outside the service.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { agentServer } from "../agent/support/AgentServer.js"
import { backends } from "../foundation/support/Backends.js"
import { browserUnavailable, launchBrowser, newContext, offLoopback } from "../support/Browser.js"
import { catalogTestServer } from "../support/CatalogTestServer.js"
import { whenMet } from "../support/Needs.js"
import { request } from "../support/TestServer.js"

describe("the landing page", () => {
  it.layer(catalogTestServer())((it) => {
    it.effect("answers API clients with a JSON index of the surfaces this instance serves", () =>
      Effect.gen(function* () {
        const response = yield* request("/", { headers: { accept: "application/json" } })
        expect(response.status).toBe(200)
        expect(response.headers.get("content-type")).toContain("application/json")
        expect(response.headers.get("vary")).toBe("Accept")
        const index = response.json as {
          catalog: Array<{ path: string }>
          foundation: unknown
        }
        expect(index.catalog.map((surface) => surface.path)).toEqual(
          expect.arrayContaining(["/docs", "/openapi.json", "/sandbox", "/health", "/mcp", "/ask"])
        )
        // This test server runs the catalog alone: the index does not promise what is not there.
        expect(index.foundation).toBeNull()
        const curl = yield* request("/", { headers: { accept: "*/*" } })
        expect(curl.json).toEqual(index)
      })
    )

    it.effect("answers browsers with a page that links the references, the sandbox and health", () =>
      Effect.gen(function* () {
        const response = yield* request("/", {
          headers: { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" }
        })
        expect(response.status).toBe(200)
        expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8")
        expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
        expect(response.headers.get("x-frame-options")).toBe("DENY")
        for (const path of ["/docs", "/sandbox", "/health"]) expect(response.text).toContain(`href="${path}"`)
        expect(response.text).not.toContain('href="/api/v1/docs"')
        const stylesheet = /href="(\/assets\/site-[0-9a-f]+\.css)"/.exec(response.text)?.[1]
        expect(stylesheet).toBeDefined()
        const css = yield* request(stylesheet ?? "")
        expect(css.status).toBe(200)
        expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8")
        expect(css.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
      })
    )

    it.effect(
      "in a browser, the page renders styled, its links work, and no request leaves loopback",
      whenMet([browserUnavailable], () =>
        Effect.scoped(
          Effect.gen(function* () {
            const address = yield* ServerAddress
            const browser = yield* launchBrowser
            const { context, requests } = yield* newContext(browser)
            const page = yield* Effect.promise(() => context.newPage())
            const response = yield* Effect.promise(() => page.goto(`${address.url}/`))
            expect(response?.status()).toBe(200)
            expect(yield* Effect.promise(() => page.locator("h1").textContent())).toBe("Podcast platform")
            // The stylesheet applied: the main column is bounded, which only the stylesheet does.
            const maxWidth = yield* Effect.promise(() =>
              page.evaluate<string>("getComputedStyle(document.querySelector('main')).maxWidth")
            )
            expect(maxWidth).not.toBe("none")
            yield* Effect.promise(() => page.getByRole("link", { name: "Sandbox" }).click())
            yield* Effect.promise(() => page.waitForURL(`${address.url}/sandbox`))
            expect(yield* Effect.promise(() => page.locator("h1").first().textContent())).toContain("Sandbox")
            expect(offLoopback(requests)).toEqual([])
          })
        )
      )
    )
  })
})

describe("the landing page of an instance serving both features", () => {
  const [pglite] = backends
  it.layer(agentServer(pglite?.database ?? Effect.dieMessage("no backend")))((it) => {
    it.effect("offers a newcomer sign-up and the console beside sign-in, as links and in the index", () =>
      Effect.gen(function* () {
        const page = yield* request("/", { headers: { accept: "text/html" } })
        for (const path of ["/sign-up", "/organizations", "/sign-in", "/api/v1/docs", "/mcp/agent"]) {
          expect(page.text).toContain(`href="${path}"`)
        }
        const index = (yield* request("/", { headers: { accept: "application/json" } })).json as {
          foundation: { surfaces: Array<{ path: string }> }
        }
        expect(index.foundation.surfaces.map((surface) => surface.path)).toEqual(
          expect.arrayContaining(["/sign-up", "/organizations", "/sign-in"])
        )
      })
    )
  })
})
