// Prometheus text on a listener of its own (METRICS_PORT; never the public port, where anyone could
// read it): `GET /metrics` collects the service's metrics (MetricCollection.ts) and writes them with
// OpenTelemetry's Prometheus serializer, after naming them as OpenTelemetry's Prometheus
// compatibility rules say: the unit becomes a suffix (`http.server.request.duration` in seconds is
// `http_server_request_duration_seconds`), counters end in `_total`, and dots become underscores.
// Resource attributes are the labels of one `target_info` series.
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import type { PrometheusSerializer } from "@opentelemetry/exporter-prometheus"
import type { MetricData, MetricProducer, ResourceMetrics } from "@opentelemetry/sdk-metrics"
import * as Effect from "effect/Effect"
import type { PrometheusListener } from "./TelemetryConfig.js"

// The units OpenTelemetry's Prometheus rules spell out; a unit in braces (`{request}`) is only an
// annotation and adds nothing.
const unitSuffixes: Readonly<Record<string, string>> = {
  s: "seconds",
  ms: "milliseconds",
  us: "microseconds",
  By: "bytes",
  KiBy: "kibibytes",
  MiBy: "mebibytes",
  "%": "percent"
}

const suffixOf = (metric: MetricData): string | undefined => {
  const unit = metric.descriptor.unit
  // A dimensionless gauge is a ratio; a dimensionless counter is a count, which `_total` says.
  if (unit === "1") return "isMonotonic" in metric ? undefined : "ratio"
  return unitSuffixes[unit]
}

/** The metric's name as Prometheus knows it, before the serializer swaps dots for underscores. */
export const prometheusName = (metric: MetricData): string => {
  const suffix = suffixOf(metric)
  const name = metric.descriptor.name
  return suffix === undefined || name.endsWith(`_${suffix}`) || name.endsWith(`.${suffix}`)
    ? name
    : `${name}_${suffix}`
}

/** The text exposition format of `resourceMetrics`, written by `serializer`. */
export const prometheusText = (serializer: PrometheusSerializer, resourceMetrics: ResourceMetrics): string =>
  serializer.serialize({
    ...resourceMetrics,
    scopeMetrics: resourceMetrics.scopeMetrics.map((scope) => ({
      ...scope,
      metrics: scope.metrics.map((metric) => ({
        ...metric,
        descriptor: { ...metric.descriptor, name: prometheusName(metric) }
      }))
    }))
  })

const contentType = "text/plain; version=0.0.4; charset=utf-8"

/**
 * Serves `GET /metrics` on `listener` for the scope, written by OpenTelemetry's serializer (given
 * by the caller, which loads the SDK); resolves with the port it listens on.
 */
export const servePrometheus = (
  Serializer: typeof PrometheusSerializer,
  producer: MetricProducer,
  listener: PrometheusListener
) =>
  Effect.acquireRelease(
    Effect.async<Http.Server, Error>((resume) => {
      // No scope label on every series (every metric is the service's own); a `target_info` series.
      const serializer = new Serializer(undefined, false, undefined, false, true)
      const server = Http.createServer((request, response) => {
        const path = (request.url ?? "/").split("?")[0]
        if (path !== "/metrics") {
          response
            .writeHead(404, { "content-type": "text/plain" })
            .end("Not found: metrics are at /metrics\n")
          return
        }
        if (request.method !== "GET" && request.method !== "HEAD") {
          response.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain" }).end()
          return
        }
        producer.collect().then(
          ({ resourceMetrics }) => {
            const body = Buffer.from(prometheusText(serializer, resourceMetrics))
            response.writeHead(200, {
              "content-type": contentType,
              "content-length": String(body.byteLength)
            })
            response.end(request.method === "HEAD" ? undefined : body)
          },
          () =>
            response.writeHead(500, { "content-type": "text/plain" }).end("Metrics could not be collected\n")
        )
      })
      const onError = (error: Error) => resume(Effect.fail(error))
      server.once("error", onError)
      server.listen(listener.port, listener.host, () => {
        server.off("error", onError)
        resume(Effect.succeed(server))
      })
    }),
    (server) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map((server) => (server.address() as AddressInfo).port))
