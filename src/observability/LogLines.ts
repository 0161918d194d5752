// LOG_FORMAT=json: one JSON object per line, for log collectors that parse rather than read. Each
// holds the level, the time, the message, the cause when there is one, the log's annotations, and the
// trace and span ids of the span the log was written in (when one is recorded), so that a line can
// be joined to its trace. Text, Effect's pretty logger, stays the default.
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as FiberRef from "effect/FiberRef"
import * as FiberRefs from "effect/FiberRefs"
import * as HashMap from "effect/HashMap"
import * as HashSet from "effect/HashSet"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as Tracer from "effect/Tracer"
import type { LogFormat } from "./TelemetryConfig.js"

const messageText = (message: unknown): string =>
  (Array.isArray(message) ? message : [message])
    .map((part) => (typeof part === "string" ? part : JSON.stringify(part)))
    .join(" ")

/** The JSON line logger, writing each line with `write` (standard output in the service). */
export const jsonLines = (write: (line: string) => void) =>
  Logger.make(({ annotations, cause, context, date, logLevel, message }) => {
    const line: Record<string, unknown> = {
      level: logLevel.label,
      time: date.toISOString(),
      message: messageText(message)
    }
    if (!Cause.isEmpty(cause)) line.cause = Cause.pretty(cause, { renderErrorCause: true })
    for (const [key, value] of HashMap.toEntries(annotations)) if (!(key in line)) line[key] = value
    const span = Context.getOption(
      FiberRefs.getOrDefault(context, FiberRef.currentContext),
      Tracer.ParentSpan
    )
    // Only a span that is recorded has ids worth joining on (an unsampled one is in no trace).
    if (Option.isSome(span) && span.value.sampled) {
      line.trace_id = span.value.traceId
      line.span_id = span.value.spanId
    }
    write(`${JSON.stringify(line)}\n`)
  })

/** The service's loggers for `format`: JSON lines instead of the text logger, or as they are. */
export const layerLogFormat = (
  format: LogFormat,
  write = (line: string) => void process.stdout.write(line)
) =>
  format === "text"
    ? Layer.empty
    : Layer.fiberRefLocallyScopedWith(FiberRef.currentLoggers, (loggers) =>
        loggers.pipe(
          HashSet.remove(Logger.defaultLogger),
          HashSet.remove(Logger.prettyLoggerDefault),
          HashSet.add(jsonLines(write))
        )
      )
