// Every metric the service keeps, in one place: its OpenTelemetry name (the semantic conventions'
// where one exists), its unit and what it means. They are Effect metrics: recording one is a bucket
// search and an addition (no attribute hashing per call), and @effect/opentelemetry reads them all
// into OpenTelemetry's data model when an exporter asks (Telemetry.ts). Prometheus names are derived
// from these (PrometheusEndpoint.ts): `http.server.request.duration` in seconds is
// `http_server_request_duration_seconds`.
//
// Gauges of things that are not events (a pool's connections, the snapshot's age, memory) are read
// just before each collection by the observers registered with `observeMetrics`.
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as MetricBoundaries from "effect/MetricBoundaries"
import * as MetricLabel from "effect/MetricLabel"
import type * as Scope from "effect/Scope"

export interface MetricDescription {
  readonly unit: string
  readonly description: string
}

/** Units and descriptions by metric name, as OpenTelemetry and Prometheus show them. */
export const metricDescriptions = new Map<string, MetricDescription>()

const described = <M>(
  name: string,
  unit: string,
  description: string,
  make: (description: string) => M
): M => {
  metricDescriptions.set(name, { unit, description })
  return make(description)
}

// The semantic conventions' advice for request durations, with three finer buckets below 5 ms:
// most of this service's answers take well under a millisecond.
const durationBuckets = MetricBoundaries.fromIterable([
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10
])

export const httpServerRequestDuration = described(
  "http.server.request.duration",
  "s",
  "Duration of HTTP server requests, from the request's arrival to the end of its answer.",
  (description) => Metric.histogram("http.server.request.duration", durationBuckets, description)
)

export const httpServerActiveRequests = described(
  "http.server.active_requests",
  "{request}",
  "HTTP server requests being answered.",
  (description) => Metric.gauge("http.server.active_requests", { description })
)

export const rateLimitRefusals = described(
  "rate_limit.refusals",
  "{refusal}",
  "Requests refused with 429 by a rate limit, by limit.",
  (description) => Metric.counter("rate_limit.refusals", { description, incremental: true })
)

export const dbClientOperationDuration = described(
  "db.client.operation.duration",
  "s",
  "Duration of database statements, from sending to the last row.",
  (description) => Metric.histogram("db.client.operation.duration", durationBuckets, description)
)

// The pool's gauges keep the semantic conventions' earlier names (`db.client.connections.*`, with
// `state` and `pool.name`): the current `db.client.connection.count` ends in `_count` in Prometheus,
// a suffix Prometheus keeps for histograms and summaries, and promtool refuses it.
export const dbClientConnectionsUsage = described(
  "db.client.connections.usage",
  "{connection}",
  "Connections of the database pool, by state (used or idle).",
  (description) => Metric.gauge("db.client.connections.usage", { description })
)

export const dbClientConnectionsPendingRequests = described(
  "db.client.connections.pending_requests",
  "{request}",
  "Statements waiting for a connection of the pool.",
  (description) => Metric.gauge("db.client.connections.pending_requests", { description })
)

export const outboxBacklog = described(
  "outbox.backlog",
  "{message}",
  "Outbox messages not delivered yet (waiting, being sent or waiting for a retry).",
  (description) => Metric.gauge("outbox.backlog", { description })
)

export const outboxOldestAge = described(
  "outbox.backlog.age",
  "s",
  "Age of the oldest message not delivered yet (0 when none waits).",
  (description) => Metric.gauge("outbox.backlog.age", { description })
)

export const outboxDeliveryFailures = described(
  "outbox.delivery.failures",
  "{failure}",
  "Outbox deliveries that failed (each is retried later).",
  (description) => Metric.counter("outbox.delivery.failures", { description, incremental: true })
)

export const catalogSnapshotInfo = described(
  "catalog.snapshot.info",
  "",
  "The catalog snapshot served: always 1, with the snapshot's id as an attribute.",
  (description) => Metric.gauge("catalog.snapshot.info", { description })
)

export const catalogSnapshotAge = described(
  "catalog.snapshot.age",
  "s",
  "Time since the catalog snapshot served was built.",
  (description) => Metric.gauge("catalog.snapshot.age", { description })
)

export const processMemoryUsage = described(
  "process.memory.usage",
  "By",
  "Resident memory of the process (RSS).",
  (description) => Metric.gauge("process.memory.usage", { description })
)

export const v8jsHeapUsed = described(
  "v8js.memory.heap.used",
  "By",
  "JavaScript heap in use.",
  (description) => Metric.gauge("v8js.memory.heap.used", { description })
)

export const eventLoopDelay = (quantile: "p50" | "p99" | "max") =>
  described(
    `nodejs.eventloop.delay.${quantile}`,
    "s",
    `Event loop delay, ${quantile === "max" ? "the longest" : `its ${quantile.slice(1)}th percentile`} since the previous collection.`,
    (description) => Metric.gauge(`nodejs.eventloop.delay.${quantile}`, { description })
  )

/** Labels, as Effect metrics take them. */
export const labels = (record: Readonly<Record<string, string>>): ReadonlyArray<MetricLabel.MetricLabel> =>
  Object.entries(record).map(([key, value]) => MetricLabel.make(key, value))

const refusalLabels = new Map<string, ReadonlyArray<MetricLabel.MetricLabel>>()

/** Counts a refusal by the rate limit named `limit` (a few fixed names: the labels are kept). */
export const countRefusal = (limit: string): void => {
  let tags = refusalLabels.get(limit)
  if (tags === undefined) {
    tags = labels({ limit })
    refusalLabels.set(limit, tags)
  }
  rateLimitRefusals.unsafeUpdate(1, tags)
}

// --- gauges read before each collection -----------------------------------------------------------

const observers = new Set<Effect.Effect<void>>()

/**
 * Runs `observe` before every collection of metrics while the scope is open: it sets the gauges of
 * something that is a state rather than an event. Nothing runs while no exporter collects.
 */
export const observeMetrics = (observe: Effect.Effect<void>): Effect.Effect<void, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => observers.add(observe)),
    () => Effect.sync(() => observers.delete(observe))
  )

/** Every observer once, each within a second (a slow one leaves its gauges as they were). */
export const runObservers: Effect.Effect<void> = Effect.suspend(() =>
  Effect.forEach(
    [...observers],
    (observe) => observe.pipe(Effect.timeout("1 second"), Effect.exit, Effect.asVoid),
    { concurrency: "unbounded", discard: true }
  )
).pipe(Effect.withTracerEnabled(false))
