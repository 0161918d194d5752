// The standard OTEL_* variables as the service reads them: endpoints per signal, the protocol, the
// exporters, the sampler and its argument, the resource; and a start refused, with the variable
// named, for what cannot be honoured.
import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { parseResourceAttributes, readTelemetrySettings } from "../../src/observability/TelemetryConfig.js"

const read = (env: Record<string, string>) =>
  readTelemetrySettings.pipe(
    Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))),
    Effect.either
  )

const refusal = (env: Record<string, string>) =>
  Effect.map(read(env), (result) => {
    if (Either.isRight(result)) throw new Error("the settings were accepted")
    return String(result.left)
  })

describe("telemetry settings", () => {
  it.effect("nothing set: no traces, no metrics, text logs", () =>
    Effect.gen(function* () {
      const settings = Either.getOrThrow(yield* read({}))
      expect(Option.isNone(settings.traces)).toBe(true)
      expect(Option.isNone(settings.metrics)).toBe(true)
      expect(Option.isNone(settings.prometheus)).toBe(true)
      expect(settings.logFormat).toBe("text")
      expect(settings.serviceName).toBe("podcast-platform")
    })
  )

  it.effect("the base endpoint gets each signal's path; a signal's own endpoint is used as it is", () =>
    Effect.gen(function* () {
      const base = Either.getOrThrow(yield* read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }))
      expect(Option.map(base.traces, (traces) => traces.url)).toEqual(
        Option.some("http://collector:4318/v1/traces")
      )
      expect(Option.map(base.metrics, (metrics) => metrics.url)).toEqual(
        Option.some("http://collector:4318/v1/metrics")
      )
      expect(
        Option.map(base.traces, (traces) => [traces.protocol, traces.sampler, traces.samplerRatio])
      ).toEqual(Option.some(["http/protobuf", "parentbased_always_on", 1]))
      const own = Either.getOrThrow(
        yield* read({
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/ingest",
          OTEL_EXPORTER_OTLP_PROTOCOL: "http/json"
        })
      )
      expect(Option.map(own.traces, (traces) => [traces.url, traces.protocol])).toEqual(
        Option.some(["https://traces.example/ingest", "http/json"])
      )
      expect(Option.isNone(own.metrics)).toBe(true)
    })
  )

  it.effect("OTEL_SDK_DISABLED and OTEL_*_EXPORTER=none turn exporting off; METRICS_PORT stays", () =>
    Effect.gen(function* () {
      const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", METRICS_PORT: "9464" }
      const disabled = Either.getOrThrow(yield* read({ ...endpoint, OTEL_SDK_DISABLED: "true" }))
      expect([Option.isNone(disabled.traces), Option.isNone(disabled.metrics)]).toEqual([true, true])
      expect(disabled.prometheus).toEqual(Option.some({ host: "127.0.0.1", port: 9464 }))
      const noTraces = Either.getOrThrow(yield* read({ ...endpoint, OTEL_TRACES_EXPORTER: "none" }))
      expect([Option.isNone(noTraces.traces), Option.isSome(noTraces.metrics)]).toEqual([true, true])
      const noMetrics = Either.getOrThrow(yield* read({ ...endpoint, OTEL_METRICS_EXPORTER: "none" }))
      expect([Option.isSome(noMetrics.traces), Option.isNone(noMetrics.metrics)]).toEqual([true, true])
    })
  )

  it.effect("the sampler and its argument, and the service's name over the resource's", () =>
    Effect.gen(function* () {
      const settings = Either.getOrThrow(
        yield* read({
          OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
          OTEL_TRACES_SAMPLER: "ParentBased_TraceIdRatio",
          OTEL_TRACES_SAMPLER_ARG: "0.25",
          OTEL_SERVICE_NAME: "catalog-eu",
          OTEL_RESOURCE_ATTRIBUTES:
            "service.name=ignored, deployment.environment.name = prod ,k8s.pod.name=a%3Db"
        })
      )
      expect(Option.map(settings.traces, (traces) => [traces.sampler, traces.samplerRatio])).toEqual(
        Option.some(["parentbased_traceidratio", 0.25])
      )
      expect(settings.serviceName).toBe("catalog-eu")
      expect(settings.resourceAttributes).toEqual({
        "service.name": "ignored",
        "deployment.environment.name": "prod",
        "k8s.pod.name": "a=b"
      })
      const named = Either.getOrThrow(yield* read({ OTEL_RESOURCE_ATTRIBUTES: "service.name=from-resource" }))
      expect(named.serviceName).toBe("from-resource")
    })
  )

  it.effect("what cannot be honoured stops the start, naming the variable", () =>
    Effect.gen(function* () {
      const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }
      expect(yield* refusal({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toContain(
        "gRPC is not supported"
      )
      expect(yield* refusal({ ...endpoint, OTEL_TRACES_SAMPLER: "jaeger_remote" })).toContain(
        "OTEL_TRACES_SAMPLER"
      )
      expect(yield* refusal({ ...endpoint, OTEL_TRACES_SAMPLER_ARG: "1.5" })).toContain(
        "OTEL_TRACES_SAMPLER_ARG"
      )
      expect(yield* refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toContain(
        "OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL"
      )
      expect(yield* refusal({ ...endpoint, OTEL_METRICS_EXPORTER: "prometheus" })).toContain("METRICS_PORT")
      expect(yield* refusal({ OTEL_RESOURCE_ATTRIBUTES: "team" })).toContain("OTEL_RESOURCE_ATTRIBUTES")
      expect(yield* refusal({ METRICS_PORT: "8080" })).toContain("METRICS_PORT must differ from PORT")
      expect(yield* refusal({ METRICS_PORT: "70000" })).toContain("METRICS_PORT")
      expect(yield* refusal({ LOG_FORMAT: "xml" })).toContain("LOG_FORMAT")
    })
  )

  it("resource attributes are percent-decoded; a malformed value refuses the whole list", () => {
    expect(parseResourceAttributes("a=1,b=x%20y,,")).toEqual(Either.right({ a: "1", b: "x y" }))
    expect(Either.isLeft(parseResourceAttributes("a=%E0%A4%A"))).toBe(true)
  })
})
