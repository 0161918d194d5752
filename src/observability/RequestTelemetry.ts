// What the server records of each request, from its arrival to the end of its answer: the server
// span (when traces are exported) and the request measures (when metrics are). Both are made at the
// server's edge (NodeServer.ts), so requests answered by a fast path are seen exactly like those the
// router answers; the router only reports the route it matched (RequestSpan.ts).
//
// The span follows the stable HTTP semantic conventions: named `{method} {route}` (`GET
// /v1/episodes/{slug}`; the method alone when no route matched, never the raw path), continuing the
// W3C `traceparent`/`tracestate` the request carried. What could hold a secret is left out by
// construction: no query string (tokens travel in `?token=` links and OAuth redirects), no header but
// the user agent (no Authorization, no Cookie), no body.
import type * as Http from "node:http"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import * as OtelApi from "@opentelemetry/api"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as MetricLabel from "effect/MetricLabel"
import { nodeClientAddress } from "../http/ClientAddress.js"
import { routeTemplate } from "../http/RouteTable.js"
import { RequestSpan } from "./RequestSpan.js"
import { httpServerActiveRequests, httpServerRequestDuration, labels } from "./ServiceMetrics.js"

/** What a request's observation is told by the server. */
export interface RequestObservation {
  /** A fast path answered it, by `route` (a template such as `/v1/episodes/{slug}`). */
  readonly answered: (route: string) => void
  /** The router answers it: its app runs within the request's span (`RequestTelemetry.within`). */
  readonly routed: () => void
}

export interface RequestTelemetry {
  /** Whether requests run with the tracer on: traces are exported. */
  readonly tracing: boolean
  /** Starts observing a request as it arrives; the observation ends when its answer does. */
  readonly observe: (request: Http.IncomingMessage, response: Http.ServerResponse) => RequestObservation
  /** Sets the active-requests gauge (before each collection of metrics). */
  readonly reportActive: Effect.Effect<void>
  /** The router's app, run within the span of the request it answers. */
  readonly within: <E, R>(
    app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest>
}

/** The server's request telemetry, when traces or metrics are on (absent otherwise: nothing is paid). */
export class ServerTelemetry extends Context.Tag("ServerTelemetry")<ServerTelemetry, RequestTelemetry>() {}

// The method names the HTTP semantic conventions know; any other is `_OTHER` (a client could
// otherwise make a new time series per made-up method).
const knownMethods = new Set(["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"])

export const normalizedMethod = (method: string | undefined): string =>
  method !== undefined && knownMethods.has(method) ? method : "_OTHER"

const pathOf = (url: string): string => {
  const q = url.indexOf("?")
  return q === -1 ? url : url.slice(0, q)
}

/** The longest user agent kept on a span: it is the client's to choose. */
const maxUserAgent = 512

const headerValue = (value: string | ReadonlyArray<string> | undefined): string | undefined =>
  typeof value === "string" ? value : value?.[0]

const activeLabelsByMethod = new Map<string, ReadonlyArray<MetricLabel.MetricLabel>>()
const activeLabels = (method: string) => {
  let tags = activeLabelsByMethod.get(method)
  if (tags === undefined) {
    tags = labels({ "http.request.method": method })
    activeLabelsByMethod.set(method, tags)
  }
  return tags
}

/** `host[:port]` of the Host header, when it is one (a client may send anything). */
const hostPattern = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]{1,253})(?::(\d{1,5}))?$/

const headersGetter: OtelApi.TextMapGetter<Http.IncomingHttpHeaders> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key]
}

/** What making server spans takes, from the OpenTelemetry SDK (loaded only when traces are on). */
export interface ServerSpans {
  readonly tracer: OtelApi.Tracer
  /** Reads `traceparent` and `tracestate`. */
  readonly propagator: OtelApi.TextMapPropagator
  /** The Effect context that carries a span's flags and state to its children. */
  readonly inherited: (spanContext: OtelApi.SpanContext) => Context.Context<never>
}

export interface RequestTelemetryOptions {
  /** Makes server spans; none: no span is made. */
  readonly spans: ServerSpans | undefined
  /** Records each request's duration and counts requests being answered. */
  readonly measures: boolean
  /** Whether X-Forwarded-* headers are believed (TRUST_PROXY), for the client's address and scheme. */
  readonly trustProxy: boolean
}

export const makeRequestTelemetry = (options: RequestTelemetryOptions): RequestTelemetry => {
  const { spans: serverSpans, measures, trustProxy } = options
  // By response: the body rules hand the router a replayed request, but the response is the same.
  const spans = new WeakMap<Http.ServerResponse, RequestSpan>()

  const startSpan = (serverSpans: ServerSpans, request: Http.IncomingMessage, method: string) => {
    const { tracer, propagator, inherited } = serverSpans
    const headers = request.headers
    const parent = propagator.extract(OtelApi.ROOT_CONTEXT, headers, headersGetter)
    const forwardedProto = trustProxy ? headerValue(headers["x-forwarded-proto"]) : undefined
    const attributes: OtelApi.Attributes = {
      "http.request.method": method,
      "url.scheme": forwardedProto === "https" ? "https" : "http",
      "url.path": pathOf(request.url ?? "/"),
      "network.protocol.version": request.httpVersion,
      "client.address": nodeClientAddress(request, trustProxy)
    }
    if (method === "_OTHER" && request.method !== undefined) {
      attributes["http.request.method_original"] = request.method.slice(0, 32)
    }
    const peer = request.socket.remoteAddress
    if (peer !== undefined) {
      attributes["network.peer.address"] = peer
      if (request.socket.remotePort !== undefined) attributes["network.peer.port"] = request.socket.remotePort
    }
    const host = hostPattern.exec(
      (trustProxy ? headerValue(headers["x-forwarded-host"]) : undefined) ?? headers.host ?? ""
    )
    if (host?.[1] !== undefined) {
      attributes["server.address"] = host[1]
      if (host[2] !== undefined) attributes["server.port"] = Number(host[2])
    }
    const userAgent = headers["user-agent"]
    if (userAgent !== undefined) attributes["user_agent.original"] = userAgent.slice(0, maxUserAgent)
    const otel = tracer.startSpan(method, { kind: OtelApi.SpanKind.SERVER, attributes }, parent)
    return new RequestSpan(method, otel, inherited(otel.spanContext()))
  }

  // Requests being answered, by method, for the active-requests gauge.
  const active = new Map<string, number>()
  // The labels of each (method, route, status) seen: Effect keeps a metric's series by the identity
  // of its label array, so a request reuses its series' array instead of building one.
  const durationLabels = new Map<string, ReadonlyArray<MetricLabel.MetricLabel>>()
  const labelsOf = (method: string, route: string | undefined, status: number | undefined) => {
    const key = `${method} ${status ?? "-"} ${route ?? ""}`
    let tags = durationLabels.get(key)
    if (tags === undefined) {
      const record: Record<string, string> = { "http.request.method": method }
      if (route !== undefined) record["http.route"] = route
      if (status !== undefined) record["http.response.status_code"] = String(status)
      if (status === undefined) record["error.type"] = "aborted"
      else if (status >= 500) record["error.type"] = String(status)
      tags = labels(record)
      durationLabels.set(key, tags)
    }
    return tags
  }

  class Observation implements RequestObservation {
    /** The route a fast path answered by. */
    answeredRoute: string | undefined = undefined
    readonly started = measures ? performance.now() : 0

    constructor(
      readonly method: string,
      readonly span: RequestSpan | undefined,
      readonly response: Http.ServerResponse
    ) {
      if (measures) active.set(method, (active.get(method) ?? 0) + 1)
    }

    answered(route: string) {
      this.answeredRoute = route
    }

    routed() {
      spans.set(this.response, this.span ?? new RequestSpan(this.method, undefined))
    }

    finish() {
      const { method, response } = this
      const reported = spans.get(response)?.route
      const route = this.answeredRoute ?? (reported === undefined ? undefined : routeTemplate(reported))
      const status = response.headersSent ? response.statusCode : undefined
      if (measures) {
        active.set(method, (active.get(method) ?? 1) - 1)
        const seconds = (performance.now() - this.started) / 1000
        httpServerRequestDuration.unsafeUpdate(seconds, labelsOf(method, route, status))
      }
      const otel = this.span?.otel
      if (otel === undefined) return
      if (route !== undefined) {
        otel.setAttribute("http.route", route)
        otel.updateName(`${method} ${route}`)
      }
      if (status === undefined) {
        // The connection closed before anything was answered.
        otel.setAttribute("error.type", "aborted")
      } else {
        otel.setAttribute("http.response.status_code", status)
        // Server spans are errors for 5xx only: a 4xx is the client's mistake, answered as it should be.
        if (status >= 500) {
          otel.setAttribute("error.type", String(status))
          otel.setStatus({ code: OtelApi.SpanStatusCode.ERROR })
        }
      }
      otel.end()
    }
  }

  return {
    tracing: serverSpans !== undefined,
    observe: (request, response) => {
      const method = normalizedMethod(request.method)
      const observation = new Observation(
        method,
        serverSpans === undefined ? undefined : startSpan(serverSpans, request, method),
        response
      )
      response.once("close", () => observation.finish())
      return observation
    },
    reportActive: Effect.sync(() => {
      for (const [method, count] of active) {
        httpServerActiveRequests.unsafeUpdate(count, activeLabels(method))
      }
    }),
    within: (app) =>
      Effect.withFiberRuntime((fiber) => {
        const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
        const span = spans.get(NodeHttpServerRequest.toServerResponse(request))
        return span === undefined ? app : Effect.withParentSpan(app, span)
      })
  }
}
