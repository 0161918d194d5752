// How long the service may take over a request once node has received it. A handler that has not
// produced its response within the handler deadline is interrupted and answered 503 in the envelope
// (with `Retry-After`): the service is not a gateway, and 503 is what a client already gets when the
// database is slow (DATABASE_STATEMENT_TIMEOUT_MS), so one retry rule covers both. A streamed body
// (the server-sent events of /ask) is long-lived by design: it has a bound of its own, after which it
// ends as if complete. Receiving the request (headers, then body) is bounded by node itself
// (`headersTimeout`, `requestTimeout`; see NodeServer.ts and ClientErrors.ts).
import * as HttpBody from "@effect/platform/HttpBody"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { ServiceUnavailable } from "./ApiError.js"

export interface HandlerDeadlines {
  /** Longest time from a request's arrival at the router to its response. */
  readonly handlerTimeoutMs: number
  /** Longest time a streamed response body may keep streaming. */
  readonly streamTimeoutMs: number
}

/** The 503 a request gets when its handler runs out of time. */
export const handlerTimedOut = (timeoutMs: number) =>
  new ServiceUnavailable({
    message: `The request could not be answered within ${Duration.format(Duration.millis(timeoutMs))}; try again.`,
    retryAfterSeconds: 1
  })

/** The response with its streamed body, if it has one, ended after `timeoutMs`. */
const boundStream =
  (timeoutMs: number) =>
  (response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse => {
    const body = response.body
    if (body._tag !== "Stream") return response
    return HttpServerResponse.setBody(
      response,
      HttpBody.stream(
        Stream.interruptAfter(body.stream, Duration.millis(timeoutMs)),
        body.contentType,
        body.contentLength
      )
    )
  }

/**
 * `app` within the deadlines. A plain timer interrupts the request's fiber (an Effect timeout forks
 * fibers per request and halved the router's throughput); the platform runs a request
 * uninterruptibly and lets its route handler be interrupted, so the handler stops and the failure
 * handlers around it turn the interruption into the 503.
 */
export const withDeadlines =
  (deadlines: HandlerDeadlines) =>
  <E, R>(
    app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, E | ServiceUnavailable, R> =>
    Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, E | ServiceUnavailable, R>((fiber) => {
      let expired = false
      const timer = setTimeout(() => {
        expired = true
        fiber.unsafeInterruptAsFork(fiber.id())
      }, deadlines.handlerTimeoutMs)
      return app.pipe(
        Effect.map(boundStream(deadlines.streamTimeoutMs)),
        Effect.catchAllCause(
          (cause): Effect.Effect<never, E | ServiceUnavailable> =>
            expired && Cause.isInterrupted(cause)
              ? Effect.fail(handlerTimedOut(deadlines.handlerTimeoutMs))
              : Effect.failCause(cause)
        ),
        Effect.ensuring(Effect.sync(() => clearTimeout(timer)))
      )
    })
