// The catalog's requests in a trace, over OTLP/HTTP with JSON: a read the fast path answers is a
// server span like any other (named by its route, continuing the caller's trace), and so is one the
// HttpApi answers; the sampler of OTEL_TRACES_SAMPLER decides which are kept.
import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { catalogTestServer, FixtureSnapshot } from "../support/CatalogTestServer.js"
import { eventually, type OtlpReceiver, otlpReceiver } from "../support/OtlpReceiver.js"
import { request } from "../support/TestServer.js"

class Receiver extends Effect.Tag("Receiver")<Receiver, OtlpReceiver>() {}

const tracedCatalog = (settings: Record<string, string>) =>
  Layer.unwrapScoped(
    Effect.map(otlpReceiver, (receiver) =>
      Layer.merge(
        catalogTestServer({
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
          OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
          OTEL_BSP_SCHEDULE_DELAY: "50",
          ...settings
        }),
        Layer.succeed(Receiver, receiver)
      )
    )
  )

const parentId = "b7ad6b7169203331"
const traceparent = (traceId: string, sampled = true) => `00-${traceId}-${parentId}-${sampled ? "01" : "00"}`

const serverSpanOf = (receiver: OtlpReceiver, traceId: string) =>
  eventually(() => receiver.spans.find((span) => span.traceId === traceId && span.kind === 2))

describe("the catalog in traces", () => {
  layer(tracedCatalog({}), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("a read the fast path answers is a server span named by its route, in the caller's trace", () =>
      Effect.gen(function* () {
        const receiver = yield* Receiver
        const { manifest } = yield* FixtureSnapshot
        const slug = Object.keys(manifest.episodes)[0] ?? ""
        const traceId = "0af7651916cd43dd8448eb211c80319c"
        const response = yield* request(`/v1/episodes/${slug}`, {
          headers: { traceparent: traceparent(traceId) }
        })
        expect(response.status).toBe(200)
        const span = yield* serverSpanOf(receiver, traceId)
        expect(span.name).toBe("GET /v1/episodes/{slug}")
        expect(span.parentSpanId).toBe(parentId)
        expect(span.attributes).toMatchObject({
          "http.request.method": "GET",
          "http.route": "/v1/episodes/{slug}",
          "http.response.status_code": response.status,
          "url.path": `/v1/episodes/${slug}`
        })
        expect(span.attributes["url.query"]).toBeUndefined()
        expect(receiver.contentTypes.every((type) => type.startsWith("application/json"))).toBe(true)
      })
    )

    it.effect("a request the HttpApi answers is named by its route too, and a 404 by its method alone", () =>
      Effect.gen(function* () {
        const receiver = yield* Receiver
        const batchTrace = "1af7651916cd43dd8448eb211c80319c"
        const batch = yield* request("/v1/batch", {
          method: "POST",
          headers: { "content-type": "application/json", traceparent: traceparent(batchTrace) },
          body: JSON.stringify({ requests: [{ id: "a", path: "/v1/episodes?limit=1" }] })
        })
        expect(batch.status).toBe(200)
        const batchSpan = yield* serverSpanOf(receiver, batchTrace)
        expect(batchSpan.name).toBe("POST /v1/batch")

        const missingTrace = "2af7651916cd43dd8448eb211c80319c"
        const missing = yield* request("/v1/episodes/1/not-a-route", {
          headers: { traceparent: traceparent(missingTrace) }
        })
        expect(missing.status).toBe(404)
        const missingSpan = yield* serverSpanOf(receiver, missingTrace)
        expect(missingSpan.name).toBe("GET")
        expect(missingSpan.attributes["http.route"]).toBeUndefined()
      })
    )
  })
})

describe("with OTEL_TRACES_SAMPLER=traceidratio and a ratio of 0", () => {
  layer(tracedCatalog({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "0" }), {
    timeout: 120_000,
    excludeTestServices: true
  })((it) => {
    it.effect("no request is kept, even one its caller sampled", () =>
      Effect.gen(function* () {
        const receiver = yield* Receiver
        for (let i = 0; i < 5; i++) {
          const response = yield* request("/health", {
            headers: { traceparent: traceparent(`3af7651916cd43dd8448eb211c8031${i}0`) }
          })
          expect(response.status).toBe(200)
        }
        // Longer than the batch delay: anything kept would have been sent by now.
        yield* Effect.sleep("500 millis")
        expect(receiver.spans.filter((span) => span.kind === 2)).toEqual([])
      })
    )
  })
})
