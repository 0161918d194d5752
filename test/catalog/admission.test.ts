// Every catalog surface is admitted through one budget per client: what REST, ask, batch, MCP and
// RPC spend together empties it, and then each of them, the descriptions included, answers 429.
import * as Http from "node:http"
import { describe, expect, it } from "@effect/vitest"
import { CatalogClient, TooManyRequests } from "@podcast-platform/catalog-client"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { catalogTestServer } from "../support/CatalogTestServer.js"
import { request } from "../support/TestServer.js"

const budget = 6

const json = { "content-type": "application/json" }
const mcpHeaders = { ...json, accept: "application/json, text/event-stream" }
const listTools = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
const batchOfTwo = JSON.stringify({
  requests: [
    { id: "a", path: "/v1/episodes/4" },
    { id: "b", path: "/v1/snapshot" }
  ]
})

/** A POST through node:http (MCP checks the Host header, which this sends as the server's address). */
const post = (path: string, headers: Record<string, string>, body: string) =>
  Effect.flatMap(ServerAddress, (address) =>
    Effect.promise(
      () =>
        new Promise<{ status: number; retryAfter: string | undefined; body: string }>((resolve, reject) => {
          const sent = Http.request(
            { host: address.host, port: address.port, path, method: "POST", headers },
            (response) => {
              const chunks: Array<Buffer> = []
              response.on("data", (chunk: Buffer) => chunks.push(chunk))
              response.on("end", () =>
                resolve({
                  status: response.statusCode ?? 0,
                  retryAfter: response.headers["retry-after"],
                  body: Buffer.concat(chunks).toString()
                })
              )
            }
          )
          sent.on("error", reject)
          sent.end(body)
        })
    )
  )

const getEpisodeByRpc = Effect.flatMap(ServerAddress, (address) =>
  Effect.flatMap(CatalogClient, (client) => Effect.exit(client.GetEpisode({ slug: "4" }))).pipe(
    Effect.provide(CatalogClient.layer({ url: `${address.url}/rpc` }))
  )
)

const expectRefused = (
  label: string,
  answer: { status: number; retryAfter: string | null | undefined; body: string }
) => {
  expect(answer.status, label).toBe(429)
  expect(Number(answer.retryAfter), label).toBeGreaterThan(0)
  expect(JSON.parse(answer.body), label).toMatchObject({
    defined: true,
    code: "TOO_MANY_REQUESTS",
    status: 429
  })
}

for (const fastPath of ["true", "false"]) {
  describe(`the catalog's one admission (fast path ${fastPath === "true" ? "on" : "off"})`, () => {
    it.layer(catalogTestServer({ CATALOG_RATE_LIMIT: String(budget), CATALOG_FAST_PATH: fastPath }))((it) => {
      it.scoped("REST, ask, batch, MCP and RPC spend one budget, and then every surface answers 429", () =>
        Effect.gen(function* () {
          // Spent together, in under the ten seconds the budget takes to win one request back.
          expect((yield* request("/v1/episodes/4")).status).toBe(200) // 1
          expect((yield* request("/ask?q=horn")).status).toBe(200) // 2
          expect((yield* post("/v1/batch", json, batchOfTwo)).status).toBe(200) // 3, 4
          expect((yield* post("/mcp", mcpHeaders, listTools)).status).toBe(200) // 5
          expect(Exit.isSuccess(yield* getEpisodeByRpc)).toBe(true) // 6

          for (const path of [
            "/v1/episodes/4",
            "/v1/episodes?limit=1",
            "/v1/transcripts/search?q=horn",
            // (/health is exempt, so that probes are never refused: admission-exemptions.test.ts.)
            "/sandbox",
            "/openapi.json",
            "/docs",
            "/ask?q=horn"
          ]) {
            const refused = yield* request(path)
            expectRefused(path, {
              status: refused.status,
              retryAfter: refused.headers.get("retry-after"),
              body: refused.text
            })
          }
          expectRefused("batch", yield* post("/v1/batch", json, batchOfTwo))
          expectRefused("POST /ask", yield* post("/ask", json, JSON.stringify({ question: "horn" })))
          expectRefused("/mcp", yield* post("/mcp", mcpHeaders, listTools))
          expectRefused("/mcp/docs", yield* post("/mcp/docs", mcpHeaders, listTools))
          const rpc = yield* getEpisodeByRpc
          const failure = Exit.isFailure(rpc) ? Cause.failureOption(rpc.cause) : Option.none()
          expect(Option.getOrUndefined(failure)).toBeInstanceOf(TooManyRequests)
        })
      )
    })
  })
}
