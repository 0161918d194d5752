// What the operator asked of traces, metrics and logs, read once at start-up from the standard
// OpenTelemetry variables (OTEL_*, as the SDKs of every language read them) and our own three
// (METRICS_PORT, METRICS_HOST, LOG_FORMAT). A value we cannot honour stops the start with one line
// saying which variable and why, rather than leaving the operator with a silent collector.
//
// The OpenTelemetry SDK reads the variables this module does not (exporter headers, timeouts,
// compression, certificates, span limits, the batch processor's queue) from the environment itself.
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"

/** How OTLP is carried: the specification's two HTTP encodings (gRPC is not offered). */
export type OtlpProtocol = "http/protobuf" | "http/json"

export type SamplerName =
  | "always_on"
  | "always_off"
  | "traceidratio"
  | "parentbased_always_on"
  | "parentbased_always_off"
  | "parentbased_traceidratio"

export interface TraceExport {
  /** Where spans are posted (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or the base endpoint + /v1/traces). */
  readonly url: string
  readonly protocol: OtlpProtocol
  readonly sampler: SamplerName
  /** The ratio of the ratio samplers (OTEL_TRACES_SAMPLER_ARG), 1 by default. */
  readonly samplerRatio: number
  /** OTEL_BSP_SCHEDULE_DELAY: the longest a finished span waits before it is sent. */
  readonly scheduleDelayMs: number
}

export interface MetricExport {
  /** Where metrics are posted (OTEL_EXPORTER_OTLP_METRICS_ENDPOINT, or the base endpoint + /v1/metrics). */
  readonly url: string
  readonly protocol: OtlpProtocol
  /** OTEL_METRIC_EXPORT_INTERVAL. */
  readonly intervalMs: number
}

export interface PrometheusListener {
  readonly host: string
  readonly port: number
}

export type LogFormat = "text" | "json"

export interface TelemetrySettings {
  /** service.name and the other resource attributes every span and metric carries. */
  readonly serviceName: string
  readonly resourceAttributes: Readonly<Record<string, string>>
  /** Spans over OTLP, when a traces endpoint is set (and neither the SDK nor traces are turned off). */
  readonly traces: Option.Option<TraceExport>
  /** Metrics over OTLP, on the same terms. */
  readonly metrics: Option.Option<MetricExport>
  /** Prometheus text on a listener of its own (METRICS_PORT), never on the public port. */
  readonly prometheus: Option.Option<PrometheusListener>
  readonly logFormat: LogFormat
}

/** Whether requests are measured at all: metrics go somewhere. */
export const measuresRequests = (settings: TelemetrySettings): boolean =>
  Option.isSome(settings.metrics) || Option.isSome(settings.prometheus)

const optionalString = (name: string) => Config.option(Config.string(name))

/** A variable that holds one of `values`, with `fallback` when it is unset. */
const oneOf = <const A extends string>(name: string, values: ReadonlyArray<A>, fallback: A) =>
  Config.string(name).pipe(
    Config.map((value) => value.trim().toLowerCase()),
    Config.validate({
      message: `${name} must be one of ${values.join(", ")}`,
      validation: (value): value is A => (values as ReadonlyArray<string>).includes(value)
    }),
    Config.withDefault(fallback)
  )

const httpUrl = (name: string, value: string): Either.Either<string, string> => {
  try {
    const url = new URL(value)
    if (url.protocol === "http:" || url.protocol === "https:") return Either.right(value)
  } catch {}
  return Either.left(`${name} must be an http:// or https:// URL`)
}

/**
 * The URL of one signal: its own variable is used as it is; the base endpoint gets the signal's path
 * appended (the specification's rule for OTLP/HTTP).
 */
const signalUrl = (signal: "traces" | "metrics") =>
  Effect.gen(function* () {
    const own = `OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`
    const specific = yield* optionalString(own)
    if (Option.isSome(specific) && specific.value.trim() !== "") {
      return Option.some(yield* httpUrl(own, specific.value.trim()))
    }
    const base = yield* optionalString("OTEL_EXPORTER_OTLP_ENDPOINT")
    if (Option.isNone(base) || base.value.trim() === "") return Option.none<string>()
    const valid = yield* httpUrl("OTEL_EXPORTER_OTLP_ENDPOINT", base.value.trim())
    return Option.some(`${valid.replace(/\/+$/, "")}/v1/${signal}`)
  })

const protocolOf = (signal: "traces" | "metrics") =>
  Effect.gen(function* () {
    const protocols = ["http/protobuf", "http/json"] as const
    const general = yield* oneOf("OTEL_EXPORTER_OTLP_PROTOCOL", [...protocols, "grpc"], "http/protobuf")
    const own = yield* oneOf(
      `OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_PROTOCOL`,
      [...protocols, "grpc"],
      general
    )
    if (own === "grpc") {
      return yield* Effect.fail(
        "OTLP over gRPC is not supported: set OTEL_EXPORTER_OTLP_PROTOCOL to http/protobuf or http/json"
      )
    }
    return own
  })

/**
 * OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER: `otlp` (the default) or `none`. Prometheus is served
 * by METRICS_PORT instead of the SDK's own listener, and the console exporter is not offered.
 */
const exporterOn = (name: string) =>
  Effect.gen(function* () {
    const value = yield* optionalString(name)
    if (Option.isNone(value) || value.value.trim() === "") return true
    const listed = value.value.split(",").map((part) => part.trim().toLowerCase())
    const unknown = listed.filter((part) => part !== "otlp" && part !== "none")
    if (unknown.length > 0) {
      return yield* Effect.fail(
        `${name} may be otlp or none (${unknown.join(", ")} is not offered${
          unknown.includes("prometheus") ? "; set METRICS_PORT for Prometheus" : ""
        })`
      )
    }
    return listed.includes("otlp")
  })

const samplers: ReadonlyArray<SamplerName> = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio"
]

const samplerRatio = Config.number("OTEL_TRACES_SAMPLER_ARG").pipe(
  Config.validate({
    message: "OTEL_TRACES_SAMPLER_ARG must be a number between 0 and 1",
    validation: (n) => n >= 0 && n <= 1
  }),
  Config.withDefault(1)
)

const nonNegativeMs = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.validate({ message: `${name} must be a whole number of milliseconds`, validation: (n) => n >= 0 }),
    Config.withDefault(fallback)
  )

/**
 * OTEL_RESOURCE_ATTRIBUTES: `key=value` pairs separated by commas, values percent-encoded (the
 * W3C Baggage octet rules the specification refers to). A malformed list is refused as a whole.
 */
export const parseResourceAttributes = (text: string): Either.Either<Record<string, string>, string> => {
  const attributes: Record<string, string> = {}
  for (const entry of text.split(",")) {
    if (entry.trim() === "") continue
    const at = entry.indexOf("=")
    const key = at === -1 ? "" : entry.slice(0, at).trim()
    if (key === "") return Either.left(`OTEL_RESOURCE_ATTRIBUTES: "${entry.trim()}" is not key=value`)
    try {
      attributes[key] = decodeURIComponent(entry.slice(at + 1).trim())
    } catch {
      return Either.left(`OTEL_RESOURCE_ATTRIBUTES: the value of ${key} is not valid percent-encoding`)
    }
  }
  return Either.right(attributes)
}

const defaultServiceName = "podcast-platform"

/** The settings, or a ConfigError naming the variable at fault. */
export const readTelemetrySettings = Effect.gen(function* () {
  const disabled = yield* Config.boolean("OTEL_SDK_DISABLED").pipe(Config.withDefault(false))
  const attributes = yield* parseResourceAttributes(
    Option.getOrElse(yield* optionalString("OTEL_RESOURCE_ATTRIBUTES"), () => "")
  )
  // OTEL_SERVICE_NAME wins over a service.name among the resource attributes.
  const serviceName = Option.getOrElse(
    Option.filter(yield* optionalString("OTEL_SERVICE_NAME"), (name) => name.trim() !== ""),
    () => attributes["service.name"] ?? defaultServiceName
  )

  const tracesUrl =
    disabled || !(yield* exporterOn("OTEL_TRACES_EXPORTER")) ? Option.none() : yield* signalUrl("traces")
  const traces: Option.Option<TraceExport> = Option.isNone(tracesUrl)
    ? Option.none()
    : Option.some({
        url: tracesUrl.value,
        protocol: yield* protocolOf("traces"),
        sampler: yield* oneOf("OTEL_TRACES_SAMPLER", samplers, "parentbased_always_on"),
        samplerRatio: yield* samplerRatio,
        scheduleDelayMs: yield* nonNegativeMs("OTEL_BSP_SCHEDULE_DELAY", 5000)
      })

  const metricsUrl =
    disabled || !(yield* exporterOn("OTEL_METRICS_EXPORTER")) ? Option.none() : yield* signalUrl("metrics")
  const metrics: Option.Option<MetricExport> = Option.isNone(metricsUrl)
    ? Option.none()
    : Option.some({
        url: metricsUrl.value,
        protocol: yield* protocolOf("metrics"),
        intervalMs: yield* nonNegativeMs("OTEL_METRIC_EXPORT_INTERVAL", 60_000)
      })

  const metricsPort = yield* Config.option(
    Config.integer("METRICS_PORT").pipe(
      Config.validate({
        message: "METRICS_PORT must be between 0 and 65535",
        validation: (n) => n >= 0 && n <= 65535
      })
    )
  )
  // By default the metrics listener binds where the public one does (HOST), on its own port.
  const metricsHost = yield* Config.string("METRICS_HOST").pipe(
    Config.orElse(() => Config.string("HOST")),
    Config.withDefault("127.0.0.1")
  )
  const publicPort = yield* Config.integer("PORT").pipe(Config.withDefault(8080))
  if (Option.isSome(metricsPort) && metricsPort.value !== 0 && metricsPort.value === publicPort) {
    return yield* Effect.fail(
      "METRICS_PORT must differ from PORT: metrics are never served on the public port"
    )
  }

  return {
    serviceName,
    resourceAttributes: attributes,
    traces,
    metrics,
    prometheus: Option.map(metricsPort, (port) => ({ host: metricsHost, port })),
    logFormat: yield* oneOf("LOG_FORMAT", ["text", "json"], "text")
  } satisfies TelemetrySettings
}).pipe(
  // Plain messages above become configuration errors, reported like every other bad variable.
  Effect.mapError((error) => (typeof error === "string" ? ConfigError.InvalidData([], error) : error))
)

/** Whether spans are exported (read where a second path must step aside for the traced one). */
export const tracesExported = Effect.map(readTelemetrySettings, (settings) => Option.isSome(settings.traces))

/** Whether metrics go anywhere (read where measuring has a cost of its own: every SQL statement). */
export const metricsExported = Effect.map(readTelemetrySettings, measuresRequests)

export class TelemetryConfig extends Context.Tag("TelemetryConfig")<TelemetryConfig, TelemetrySettings>() {
  static readonly layer = Layer.effect(TelemetryConfig, readTelemetrySettings)
}
