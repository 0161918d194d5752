// LOG_FORMAT=json: the logger writes one JSON object per line with the level, time, message,
// annotations and the ids of the span it was written in; the real service, started with it, writes
// nothing else on its output; text stays the default.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { layerLogFormat } from "../../src/observability/LogLines.js"
import { buildFixtureSnapshot } from "../support/CatalogTestServer.js"
import { childService, serverBundle } from "../support/ChildService.js"
import { embeddedDataDir } from "../support/EmbeddedDataDir.js"

const captured = () => {
  const lines: Array<string> = []
  return { lines, write: (line: string) => void lines.push(line) }
}

describe("LOG_FORMAT=json", () => {
  it.effect("a log in a span is one JSON line with its level, time, message, annotations and span ids", () =>
    Effect.gen(function* () {
      const { lines, write } = captured()
      const span = yield* Effect.gen(function* () {
        yield* Effect.logWarning("the outbox is behind", 3)
        return yield* Effect.currentSpan
      }).pipe(
        Effect.annotateLogs("component", "outbox"),
        Effect.withSpan("deliver"),
        Effect.provide(layerLogFormat("json", write))
      )
      expect(lines).toHaveLength(1)
      expect(lines[0]?.endsWith("\n")).toBe(true)
      const line = JSON.parse(lines[0] ?? "")
      expect(line).toEqual({
        level: "WARN",
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        message: "the outbox is behind 3",
        component: "outbox",
        trace_id: span.traceId,
        span_id: span.spanId
      })
    })
  )

  it.effect("outside a span a line has no ids, and a failure's cause is in it", () =>
    Effect.gen(function* () {
      const { lines, write } = captured()
      yield* Effect.logError("delivery failed", new Error("connection refused")).pipe(
        Effect.provide(layerLogFormat("json", write))
      )
      const line = JSON.parse(lines[0] ?? "")
      expect(line.level).toBe("ERROR")
      expect(line.message).toContain("delivery failed")
      expect(line).not.toHaveProperty("trace_id")
      expect(Option.isNone(yield* Effect.option(Effect.currentSpan))).toBe(true)
    })
  )

  it.effect("text, the default, leaves the loggers as they are", () =>
    Effect.gen(function* () {
      const { lines, write } = captured()
      yield* Effect.logInfo("plain").pipe(Effect.provide(layerLogFormat("text", write)))
      expect(lines).toEqual([])
    })
  )

  it.live(
    "the service started with LOG_FORMAT=json writes only JSON lines, its start-up included",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const service = yield* childService(yield* serverBundle, {
            CATALOG_DIR: yield* buildFixtureSnapshot(),
            // Without the schema, so that the migrations' lines are among the start-up's.
            DATA_DIR: embeddedDataDir("log-lines-", "none"),
            LOG_FORMAT: "json"
          })
          const lines = service
            .output()
            .split("\n")
            .filter((line) => line !== "")
          const parsed = lines.map((line) => JSON.parse(line) as { level: string; message: string })
          expect(parsed.map((line) => line.message)).toContainEqual(
            expect.stringMatching(/^Listening on http/)
          )
          expect(parsed.every((line) => typeof line.level === "string")).toBe(true)
        })
      ),
    120_000
  )
})
