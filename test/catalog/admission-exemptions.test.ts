// What the catalog's one rate limit counts: an MCP POST carrying a batch of JSON-RPC messages costs
// one request per message, as the same messages sent one by one would; `/health` costs nothing, so
// a balancer's probes are never refused, on the fast path and through the router alike.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { catalogTestServer } from "../support/CatalogTestServer.js"

const mcpHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" }

const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" })

const send = (path: string, init: RequestInit = {}) =>
  Effect.flatMap(ServerAddress, ({ url }) =>
    Effect.promise(async () => {
      const response = await fetch(`${url}${path}`, init)
      const text = await response.text()
      return { status: response.status, text }
    })
  )

const mcp = (body: unknown) =>
  send("/mcp", { method: "POST", headers: mcpHeaders, body: JSON.stringify(body) })

describe("an MCP batch and the rate limit", () => {
  it.layer(catalogTestServer({ CATALOG_RATE_LIMIT: "5" }))((it) => {
    it.effect("each JSON-RPC message of a batch costs one request of the budget", () =>
      Effect.gen(function* () {
        const four = yield* mcp([ping(1), ping(2), ping(3), ping(4)])
        expect(four.status).toBe(200)
        expect(JSON.parse(four.text)).toHaveLength(4)
        // Four of five spent: a batch of two no longer fits, and REST shares the budget.
        const two = yield* mcp([ping(5), ping(6)])
        expect(two.status).toBe(429)
        expect(JSON.parse(two.text)).toMatchObject({ code: "TOO_MANY_REQUESTS", status: 429 })
        expect((yield* send("/v1/episodes?limit=1")).status).toBe(429)
      })
    )
  })
})

for (const fastPath of ["true", "false"]) {
  describe(`/health and the rate limit (fast path ${fastPath})`, () => {
    it.layer(catalogTestServer({ CATALOG_RATE_LIMIT: "3", CATALOG_FAST_PATH: fastPath }))((it) => {
      it.effect("probes are never refused, while everything else is limited", () =>
        Effect.gen(function* () {
          for (let i = 0; i < 50; i++) {
            const probe = yield* send("/health", { method: i % 2 === 0 ? "GET" : "HEAD" })
            expect(probe.status, `probe ${i}`).toBe(200)
          }
          for (let i = 0; i < 3; i++) expect((yield* send("/v1/episodes?limit=1")).status).toBe(200)
          expect((yield* send("/v1/episodes?limit=1")).status).toBe(429)
          expect((yield* send("/health")).status).toBe(200)
        })
      )
    })
  })
}
