// A request's server span as Effect sees it. The server starts the span itself, as the request
// arrives (RequestTelemetry.ts), and runs the router's app with this object as its parent span: every
// span made while answering (services, SQL, outbound fetches) becomes its child, and the routers
// report the route they matched here, as they report it to any parent span (`http.route`). With
// metrics on and traces off, the same object only learns the route: it has no OpenTelemetry span,
// and the request runs with the tracer off, so no child span is ever made.

import type * as OtelApi from "@opentelemetry/api"
import * as Context from "effect/Context"
import type * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import type * as Tracer from "effect/Tracer"

/** An attribute value OpenTelemetry accepts, from whatever Effect was given. */
export const attributeValue = (value: unknown): OtelApi.AttributeValue => {
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
      return value
    case "bigint":
      return Number(value)
    default:
      if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value
      return String(value)
  }
}

const attributesOf = (record: Record<string, unknown> | undefined): OtelApi.Attributes | undefined => {
  if (record === undefined) return undefined
  const attributes: OtelApi.Attributes = {}
  for (const key in record) attributes[key] = attributeValue(record[key])
  return attributes
}

const nanosToHrTime = (nanos: bigint): OtelApi.HrTime => [
  Number(nanos / 1_000_000_000n),
  Number(nanos % 1_000_000_000n)
]

const routeAttribute = "http.route"

export class RequestSpan implements Tracer.Span {
  readonly _tag = "Span"
  readonly kind = "server"
  readonly parent = Option.none<Tracer.AnySpan>()
  readonly attributes = new Map<string, unknown>()
  readonly links: Array<Tracer.SpanLink> = []
  readonly status: Tracer.SpanStatus
  readonly spanId: string
  readonly traceId: string
  readonly sampled: boolean
  /** The route template the router matched, as the router wrote it (`/v1/episodes/:slug`). */
  route: string | undefined
  /** The W3C `tracestate` the request came with, passed on unchanged to the servers it calls. */
  readonly traceState: string | undefined

  constructor(
    readonly name: string,
    /** The OpenTelemetry span, when traces are exported; none when only the route is wanted. */
    readonly otel: OtelApi.Span | undefined,
    /** The trace flags and state its children inherit, where @effect/opentelemetry looks for them. */
    readonly context: Context.Context<never> = Context.empty()
  ) {
    this.status = { _tag: "Started", startTime: BigInt(Date.now()) * 1_000_000n }
    const spanContext = otel?.spanContext()
    this.spanId = spanContext?.spanId ?? ""
    this.traceId = spanContext?.traceId ?? ""
    this.sampled = spanContext !== undefined && (spanContext.traceFlags & 1) === 1
    this.traceState = spanContext?.traceState?.serialize()
  }

  attribute(key: string, value: unknown): void {
    // The server sets the route itself when the answer is done, as a template with `{name}`. A
    // mount point clears the route its router reported (ApiApp.ts).
    if (key === routeAttribute) {
      this.route = typeof value === "string" ? value : undefined
      return
    }
    this.attributes.set(key, value)
    this.otel?.setAttribute(key, attributeValue(value))
  }

  event(name: string, startTime: bigint, attributes?: Record<string, unknown>): void {
    this.otel?.addEvent(name, attributesOf(attributes), nanosToHrTime(startTime))
  }

  addLinks(links: ReadonlyArray<Tracer.SpanLink>): void {
    this.links.push(...links)
    this.otel?.addLinks(
      links.map((link) => ({
        context: {
          traceId: link.span.traceId,
          spanId: link.span.spanId,
          traceFlags: link.span.sampled ? 1 : 0
        },
        attributes: attributesOf(link.attributes) ?? {}
      }))
    )
  }

  /** Nothing: the server ends the span once the answer is written, which the app never sees. */
  end(_endTime: bigint, _exit: Exit.Exit<unknown, unknown>): void {}
}
