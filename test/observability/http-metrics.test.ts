// The request metrics as operators read them: Prometheus text on METRICS_PORT (and never on the public
// port) that promtool accepts and a real Prometheus scrapes and answers queries about, and the same
// measures pushed over OTLP. Requests are counted by route, method and status, whether the fast path
// or the HttpApi answered them.
import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { catalogTestServer, FixtureSnapshot } from "../support/CatalogTestServer.js"
import { freePort } from "../support/FreePort.js"
import { whenMet } from "../support/Needs.js"
import { eventually, type OtlpReceiver, otlpReceiver } from "../support/OtlpReceiver.js"
import {
  movedSince,
  prometheusScraping,
  prometheusUnavailable,
  promtoolCheck,
  queryPrometheus,
  sample,
  scrape
} from "../support/Prometheus.js"
import { request } from "../support/TestServer.js"

class Observed extends Effect.Tag("Observed")<
  Observed,
  { readonly receiver: OtlpReceiver; readonly metricsPort: number }
>() {}

const measuredCatalog = Layer.unwrapScoped(
  Effect.gen(function* () {
    const receiver = yield* otlpReceiver
    const metricsPort = yield* Effect.promise(freePort)
    return Layer.merge(
      catalogTestServer({
        METRICS_PORT: String(metricsPort),
        OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: `${receiver.endpoint}/v1/metrics`,
        OTEL_METRIC_EXPORT_INTERVAL: "200"
      }),
      Layer.succeed(Observed, { receiver, metricsPort })
    )
  })
)

const episodeRoute = {
  http_request_method: "GET",
  http_route: "/v1/episodes/{slug}",
  http_response_status_code: "200"
}

describe("request metrics", () => {
  layer(measuredCatalog, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect(
      "Prometheus text on METRICS_PORT counts requests by route, method and status; promtool accepts it",
      () =>
        Effect.gen(function* () {
          const { metricsPort } = yield* Observed
          const { manifest } = yield* FixtureSnapshot
          // The counters are the process's (Effect's metric registry), which test files that ran before
          // in this worker may have moved: each is read as a change since here.
          const before = (yield* scrape(metricsPort)).text
          const moved = (text: string, labels: Record<string, string>) =>
            movedSince(before, text, "http_server_request_duration_seconds_count", labels)
          const slug = Object.keys(manifest.episodes)[0] ?? ""
          for (let i = 0; i < 3; i++) expect((yield* request(`/v1/episodes/${slug}`)).status).toBe(200)
          expect((yield* request("/v1/episodes/9999")).status).toBe(404)
          const batch = yield* request("/v1/batch", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ requests: [{ id: "a", path: "/v1/episodes?limit=1" }] })
          })
          expect(batch.status).toBe(200)
          expect((yield* request("/no/such/thing")).status).toBe(404)

          const { status, type, text } = yield* scrape(metricsPort)
          expect(status).toBe(200)
          expect(type).toBe("text/plain; version=0.0.4; charset=utf-8")
          expect(text).toContain("# TYPE http_server_request_duration_seconds histogram")
          expect(moved(text, episodeRoute)).toBeGreaterThanOrEqual(3)
          expect(
            sample(text, "http_server_request_duration_seconds_bucket", { ...episodeRoute, le: "+Inf" })
          ).toBeGreaterThanOrEqual(3)
          expect(moved(text, { http_route: "/v1/episodes/{slug}", http_response_status_code: "404" })).toBe(1)
          expect(
            moved(text, {
              http_request_method: "POST",
              http_route: "/v1/batch",
              http_response_status_code: "200"
            })
          ).toBe(1)
          // A path no route matched is counted without a route: never by the path itself.
          expect(text).not.toContain("/no/such/thing")
          expect(text).toMatch(/^http_server_active_requests\{http_request_method="GET"\} \d+$/m)
          expect(text).toMatch(/^process_memory_usage_bytes \d+/m)
          expect(text).toMatch(/^target_info\{.*service_name="podcast-platform"/m)
          if (prometheusUnavailable === undefined) {
            const checked = yield* promtoolCheck(text)
            expect(checked.output).toBe("")
            expect(checked.code).toBe(0)
          }
        })
    )

    it.effect("the public port serves no metrics", () =>
      Effect.gen(function* () {
        const response = yield* request("/metrics")
        expect(response.status).toBe(404)
        expect(response.text).not.toContain("http_server_request_duration")
      })
    )

    it.effect("the same measures reach an OTLP collector, in seconds and by route", () =>
      Effect.gen(function* () {
        const { receiver } = yield* Observed
        expect((yield* request("/health")).status).toBe(200)
        const metric = yield* eventually(() =>
          receiver.metricExports
            .flat()
            .find(
              (candidate) =>
                candidate.name === "http.server.request.duration" &&
                candidate.points.some((point) => point.attributes["http.route"] === "/health")
            )
        )
        expect(metric.kind).toBe("histogram")
        expect(metric.unit).toBe("s")
        const point = metric.points.find((candidate) => candidate.attributes["http.route"] === "/health")
        expect(point?.attributes).toMatchObject({
          "http.request.method": "GET",
          "http.response.status_code": "200"
        })
        expect(point?.value).toBeGreaterThanOrEqual(1)
        expect(receiver.contentTypes.every((type) => type === "application/x-protobuf")).toBe(true)
      })
    )

    it.scoped(
      "a real Prometheus scrapes METRICS_PORT and answers for the request counter",
      whenMet([prometheusUnavailable], () =>
        Effect.gen(function* () {
          const { metricsPort } = yield* Observed
          const prometheus = yield* prometheusScraping(metricsPort)
          const labels = { http_route: "/v1/snapshot", http_response_status_code: "200" }
          // The count before (the process's counter: earlier test files in this worker may have moved it).
          const { text } = yield* scrape(metricsPort)
          const before = sample(text, "http_server_request_duration_seconds_count", labels) ?? 0
          for (let i = 0; i < 2; i++) expect((yield* request("/v1/snapshot")).status).toBe(200)
          const query =
            'http_server_request_duration_seconds_count{http_route="/v1/snapshot",http_response_status_code="200"}'
          const result = yield* Effect.promise(async () => {
            const deadline = Date.now() + 60_000
            for (;;) {
              const found = await Effect.runPromise(queryPrometheus(prometheus, query))
              if (found.length > 0 && Number(found[0]?.value[1]) >= before + 2) return found
              if (Date.now() > deadline)
                throw new Error(`Prometheus never answered ${query}:\n${prometheus.output()}`)
              await new Promise((resolve) => setTimeout(resolve, 250))
            }
          })
          expect(result[0]?.metric).toMatchObject({
            __name__: "http_server_request_duration_seconds_count",
            job: "podcast-platform",
            http_request_method: "GET",
            http_route: "/v1/snapshot"
          })
          expect(Number(result[0]?.value[1])).toBe(before + 2)
        })
      ),
      90_000
    )
  })
})
