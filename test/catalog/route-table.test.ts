// The batch routes its requests through the same table as the GETs: each item's status, ETag and
// body are what the GET of its path answers on its own, refusals of the endpoint's schemas included.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { catalogTestServer } from "../support/CatalogTestServer.js"
import { request } from "../support/TestServer.js"

const paths = [
  "/v1/episodes/4",
  "/v1/episodes/-1",
  "/v1/episodes/404",
  "/v1/episodes/abc",
  "/v1/episodes/4/",
  "/v1/transcripts/3",
  "/v1/transcripts/-1",
  "/v1/transcripts/xyz",
  "/v1/transcripts/search?q=horn&limit=1",
  "/v1/transcripts/search?q=",
  "/v1/episodes?limit=2&session=1",
  "/v1/episodes?limit=0",
  "/v1/episodes?limit=1&limit=2",
  "/v1/episodes?other=1",
  "/v1/snapshot"
]

describe("the catalog's route table", () => {
  it.layer(catalogTestServer())((it) => {
    it.effect("a batch answers each path exactly as the GET of that path does", () =>
      Effect.gen(function* () {
        const batch = yield* request("/v1/batch", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ requests: paths.map((path, i) => ({ id: String(i), path })) })
        })
        expect(batch.status).toBe(200)
        const { responses } = batch.json as {
          responses: Array<{ id: string; status: number; etag?: string; body: unknown }>
        }
        expect(responses.map((response) => response.id)).toEqual(paths.map((_, i) => String(i)))
        for (const [i, path] of paths.entries()) {
          // The batch carries the identity bytes' ETag.
          const direct = yield* request(path, { headers: { "accept-encoding": "identity" } })
          expect(responses[i]?.status, path).toBe(direct.status)
          expect(responses[i]?.body, path).toEqual(direct.json)
          expect(responses[i]?.etag, path).toBe(direct.headers.get("etag") ?? undefined)
        }
      })
    )
  })
})
