// An outbound HTTP request made with node's own client (where the platform's HttpClient, which
// traces itself, is not used): a client span named by its method, following the stable HTTP
// semantic conventions, and the W3C `traceparent`/`tracestate` headers that carry the trace to the
// server called. The URL is recorded without its query string or credentials. With the tracer off
// (no traces endpoint), the request is sent as it is, with no header added.
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Option from "effect/Option"
import type * as Tracer from "effect/Tracer"
import { RequestSpan } from "./RequestSpan.js"

export interface OutboundExchange {
  /** Headers to add to the request: the trace context, when the request is traced. */
  readonly traceHeaders: Readonly<Record<string, string>>
  /** Records the answer's status code on the span. */
  readonly answered: (status: number) => void
}

const untraced: OutboundExchange = { traceHeaders: {}, answered: () => {} }

/** The URL as a span may show it: no credentials, no query string, no fragment. */
const shownUrl = (url: URL): string => `${url.protocol}//${url.host}${url.pathname}`

/**
 * The `tracestate` of the request being answered: our spans add no entry of their own, so every span
 * of a request passes on what the request came with (W3C Trace Context, §3.3).
 */
const requestTraceState = (span: Tracer.AnySpan): string | undefined => {
  if (span instanceof RequestSpan) return span.traceState
  return span._tag === "Span" ? Option.getOrUndefined(Option.map(span.parent, requestTraceState)) : undefined
}

/** The W3C headers that make the server called a child of `span`. */
const traceHeadersOf = (span: Tracer.Span): Record<string, string> => {
  const headers: Record<string, string> = {
    traceparent: `00-${span.traceId}-${span.spanId}-${span.sampled ? "01" : "00"}`
  }
  const traceState = requestTraceState(span)
  if (traceState !== undefined && traceState !== "") headers.tracestate = traceState
  return headers
}

/** Runs `send` as the client span of a request of `method` to `url`. */
export const outboundRequest = <A, E, R>(
  method: string,
  url: URL,
  send: (exchange: OutboundExchange) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  Effect.withFiberRuntime((fiber) => {
    if (!fiber.getFiberRef(FiberRef.currentTracerEnabled)) return send(untraced)
    const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port)
    return Effect.useSpan(
      method,
      {
        kind: "client",
        captureStackTrace: false,
        attributes: {
          "http.request.method": method,
          "server.address": url.hostname,
          "server.port": port,
          "url.full": shownUrl(url)
        }
      },
      (span) =>
        send({
          traceHeaders: traceHeadersOf(span),
          answered: (status) => {
            span.attribute("http.response.status_code", status)
            if (status >= 400) span.attribute("error.type", String(status))
          }
        })
    )
  })
