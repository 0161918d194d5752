// The service's telemetry as one layer, built from TelemetryConfig: the OpenTelemetry SDK's tracer
// (through @effect/opentelemetry) exporting spans over OTLP/HTTP when a traces endpoint is set; the
// metrics (ServiceMetrics.ts) pushed over OTLP when a metrics endpoint is set and served as
// Prometheus text when METRICS_PORT is; and the server's request telemetry (RequestTelemetry.ts)
// whenever either is on. With nothing set the layer provides nothing, sets no tracer and loads no
// SDK: requests run with the tracer off and pay for no span or measure anywhere.
import { randomUUID } from "node:crypto"
import { monitorEventLoopDelay } from "node:perf_hooks"
import type * as OtelApi from "@opentelemetry/api"
import type { Sampler } from "@opentelemetry/sdk-trace-base"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { serviceMetricProducer } from "./MetricCollection.js"
import { servePrometheus } from "./PrometheusEndpoint.js"
import { makeRequestTelemetry, ServerTelemetry } from "./RequestTelemetry.js"
import { eventLoopDelay, observeMetrics, processMemoryUsage, v8jsHeapUsed } from "./ServiceMetrics.js"
import {
  type MetricExport,
  measuresRequests,
  TelemetryConfig,
  type TelemetrySettings,
  type TraceExport
} from "./TelemetryConfig.js"

/**
 * The OpenTelemetry SDK's modules, loaded only when something is exported: loading them costs about
 * 35 MB of memory and a noticeable part of start-up. (Imported statically, the bundle would load
 * them at start whatever the configuration: the bundler hoists external imports, not dynamic ones.)
 */
const loadSdk = Effect.promise(() =>
  settleAll({
    NodeSdk: import("@effect/opentelemetry/NodeSdk"),
    Metrics: import("@effect/opentelemetry/Metrics"),
    OtelTracer: import("@effect/opentelemetry/Tracer"),
    Resource: import("@effect/opentelemetry/Resource"),
    core: import("@opentelemetry/core"),
    sdkTrace: import("@opentelemetry/sdk-trace-base"),
    sdkMetrics: import("@opentelemetry/sdk-metrics"),
    traceJson: import("@opentelemetry/exporter-trace-otlp-http"),
    traceProtobuf: import("@opentelemetry/exporter-trace-otlp-proto"),
    metricsJson: import("@opentelemetry/exporter-metrics-otlp-http"),
    metricsProtobuf: import("@opentelemetry/exporter-metrics-otlp-proto"),
    prometheus: import("@opentelemetry/exporter-prometheus")
  })
)

/** Each member's value once all have settled: the loads run at once, as `Promise.all`'s do. */
async function settleAll<T extends Record<string, Promise<unknown>>>(
  promises: T
): Promise<{ readonly [K in keyof T]: Awaited<T[K]> }> {
  const entries = await Promise.all(
    Object.entries(promises).map(async ([name, promise]) => [name, await promise] as const)
  )
  return Object.fromEntries(entries) as { readonly [K in keyof T]: Awaited<T[K]> }
}

type Sdk = Effect.Effect.Success<typeof loadSdk>

/** The sampler OTEL_TRACES_SAMPLER names (the specification's six, with OTEL_TRACES_SAMPLER_ARG). */
const samplerOf = (sdk: Sdk, traces: TraceExport): Sampler => {
  const { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler } = sdk.sdkTrace
  const ratio = () => new TraceIdRatioBasedSampler(traces.samplerRatio)
  switch (traces.sampler) {
    case "always_on":
      return new AlwaysOnSampler()
    case "always_off":
      return new AlwaysOffSampler()
    case "traceidratio":
      return ratio()
    case "parentbased_always_on":
      return new ParentBasedSampler({ root: new AlwaysOnSampler() })
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() })
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: ratio() })
  }
}

/** What every span and metric says about where it comes from. */
const layerResource = (sdk: Sdk, settings: TelemetrySettings) =>
  sdk.Resource.layer({
    serviceName: settings.serviceName,
    attributes: {
      // One instance among several: Prometheus and tracing backends tell instances apart by it.
      "service.instance.id": randomUUID(),
      ...settings.resourceAttributes
    }
  })

/** The SDK's tracer, batching finished spans to the OTLP endpoint; flushed when the layer closes. */
const layerTracer = (sdk: Sdk, traces: TraceExport) =>
  Layer.unwrapEffect(
    Effect.sync(() => {
      const exporter =
        traces.protocol === "http/json"
          ? new sdk.traceJson.OTLPTraceExporter({ url: traces.url })
          : new sdk.traceProtobuf.OTLPTraceExporter({ url: traces.url })
      const processor = new sdk.sdkTrace.BatchSpanProcessor(exporter, {
        scheduledDelayMillis: traces.scheduleDelayMs
      })
      return sdk.OtelTracer.layer.pipe(
        Layer.provide(sdk.NodeSdk.layerTracerProvider(processor, { sampler: samplerOf(sdk, traces) }))
      )
    })
  )

/** Periodic OTLP exports of the metrics, on their own endpoint and interval. */
const otlpMetricReader = (sdk: Sdk, metrics: MetricExport) =>
  new sdk.sdkMetrics.PeriodicExportingMetricReader({
    exporter:
      metrics.protocol === "http/json"
        ? new sdk.metricsJson.OTLPMetricExporter({ url: metrics.url })
        : new sdk.metricsProtobuf.OTLPMetricExporter({ url: metrics.url }),
    exportIntervalMillis: metrics.intervalMs,
    // The SDK refuses a timeout longer than the interval.
    exportTimeoutMillis: Math.min(30_000, metrics.intervalMs)
  })

/** Resident memory, heap in use, and the event loop's delay since the previous collection. */
const observeProcess = Effect.gen(function* () {
  const delay = yield* Effect.acquireRelease(
    Effect.sync(() => {
      const histogram = monitorEventLoopDelay({ resolution: 10 })
      histogram.enable()
      return histogram
    }),
    (histogram) => Effect.sync(() => histogram.disable())
  )
  const p50 = eventLoopDelay("p50")
  const p99 = eventLoopDelay("p99")
  const max = eventLoopDelay("max")
  yield* observeMetrics(
    Effect.sync(() => {
      const memory = process.memoryUsage()
      processMemoryUsage.unsafeUpdate(memory.rss, [])
      v8jsHeapUsed.unsafeUpdate(memory.heapUsed, [])
      // In nanoseconds; a window without a sample reads as it was.
      if (delay.count > 0) {
        p50.unsafeUpdate(delay.percentile(50) / 1e9, [])
        p99.unsafeUpdate(delay.percentile(99) / 1e9, [])
        max.unsafeUpdate(delay.max / 1e9, [])
      }
      delay.reset()
    })
  )
})

/**
 * The metrics' exporters: OTLP pushes when a metrics endpoint is set, Prometheus text when
 * METRICS_PORT is; and the gauges of the process they read.
 */
const layerMetrics = (sdk: Sdk, settings: TelemetrySettings) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const producer = serviceMetricProducer(yield* sdk.Metrics.makeProducer)
      if (Option.isSome(settings.metrics)) {
        const reader = otlpMetricReader(sdk, settings.metrics.value)
        yield* sdk.Metrics.registerProducer(producer, () => reader)
      }
      if (Option.isSome(settings.prometheus)) {
        const listener = settings.prometheus.value
        const port = yield* servePrometheus(sdk.prometheus.PrometheusSerializer, producer, listener)
        yield* Effect.logInfo(`Metrics on http://${listener.host}:${port}/metrics`)
      }
      yield* observeProcess
    })
  )

/** The request telemetry, with server spans when a tracer is provided. */
const layerRequests = (sdk: Sdk, measures: boolean, trustProxy: boolean) =>
  Layer.scoped(
    ServerTelemetry,
    Effect.gen(function* () {
      const tracer = yield* Effect.serviceOption(sdk.OtelTracer.OtelTracer)
      const telemetry = makeRequestTelemetry({
        spans: Option.getOrUndefined(
          Option.map(tracer, (tracer) => ({
            tracer,
            propagator: new sdk.core.W3CTraceContextPropagator(),
            // Where @effect/opentelemetry looks for the flags and state a child inherits.
            inherited: (spanContext: OtelApi.SpanContext) => {
              const withFlags = sdk.OtelTracer.makeExternalSpan({
                traceId: spanContext.traceId,
                spanId: spanContext.spanId,
                traceFlags: spanContext.traceFlags,
                ...(spanContext.traceState === undefined ? {} : { traceState: spanContext.traceState })
              })
              return withFlags.context
            }
          }))
        ),
        measures,
        trustProxy
      })
      if (measures) yield* observeMetrics(telemetry.reportActive)
      return telemetry
    })
  )

/**
 * The telemetry TelemetryConfig asks for. `trustProxy` (TRUST_PROXY) decides whether a span takes
 * the client's address and the scheme from X-Forwarded-* headers.
 */
export const layerTelemetry = (trustProxy: boolean) =>
  Layer.unwrapEffect(
    Effect.gen(function* () {
      const settings = yield* TelemetryConfig
      const measures = measuresRequests(settings)
      if (Option.isNone(settings.traces) && !measures) return Layer.empty
      const sdk = yield* loadSdk
      return layerRequests(sdk, measures, trustProxy).pipe(
        Layer.provideMerge(
          Option.match(settings.traces, {
            onNone: () => Layer.empty,
            onSome: (traces) => layerTracer(sdk, traces)
          })
        ),
        Layer.provideMerge(measures ? layerMetrics(sdk, settings) : Layer.empty),
        Layer.provide(layerResource(sdk, settings))
      )
    })
  )
