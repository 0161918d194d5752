// How the service's metrics are collected for an exporter: the gauges of states are read first
// (ServiceMetrics.ts), @effect/opentelemetry's producer turns Effect's metric registry into
// OpenTelemetry's data, and each metric gets the unit and description ServiceMetrics.ts states. The
// OTLP exporter sends that as it is; Prometheus text (PrometheusEndpoint.ts) is made from it too.
import type { CollectionResult, MetricData, MetricProducer } from "@opentelemetry/sdk-metrics"
import * as Effect from "effect/Effect"
import { metricDescriptions, runObservers } from "./ServiceMetrics.js"

/** The service's own metrics, described; Effect's runtime counters of fibers are left out. */
const described = (metrics: ReadonlyArray<MetricData>): Array<MetricData> =>
  metrics.flatMap((metric) => {
    const known = metricDescriptions.get(metric.descriptor.name)
    if (known === undefined) return []
    return [
      { ...metric, descriptor: { ...metric.descriptor, unit: known.unit, description: known.description } }
    ]
  })

/** `producer` (Effect's registry as OpenTelemetry data), with the gauges read and the units stated. */
export const serviceMetricProducer = (producer: MetricProducer): MetricProducer => ({
  collect: async (options) => {
    await Effect.runPromise(runObservers)
    const result: CollectionResult = await producer.collect(options)
    return {
      ...result,
      resourceMetrics: {
        ...result.resourceMetrics,
        scopeMetrics: result.resourceMetrics.scopeMetrics.map((scope) => ({
          ...scope,
          metrics: described(scope.metrics)
        }))
      }
    }
  }
})
