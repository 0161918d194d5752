// The process's one HTTP server and its lifecycle: a plain `node:http` listener that answers the
// probes (Probes.ts), applies the body rules (BodyPolicy.ts), offers each request to the registered
// fast paths (precomputed answers that need no Effect runtime) and hands everything else to the
// Effect router within its deadlines (Deadlines.ts). Every wait is bounded: headers and body by node
// (`headersTimeout`, `requestTimeout`), handlers and streams by Deadlines.ts, idle keep-alive
// connections by `keepAliveTimeout`. Listening and closing are tied to the layer's scope; closing
// drains connections as a load balancer expects (ConnectionDrain.ts).
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import { type RequestObservation, ServerTelemetry } from "../observability/RequestTelemetry.js"
import { logAccess } from "./AccessLog.js"
import { internalErrorEnvelope } from "./ApiError.js"
import { ignoreMediaTypeWithoutBody, makeBodyPolicy } from "./BodyPolicy.js"
import { answerClientError, answerExpectationFailed, answerMissingHost, lacksHost } from "./ClientErrors.js"
import { makeConnectionDrain } from "./ConnectionDrain.js"
import { withDeadlines } from "./Deadlines.js"
import { envelopeAnswer, writeAnswer } from "./ErrorAnswer.js"
import { causeResponse } from "./ErrorResponse.js"
import { makeProbes } from "./Probes.js"
import { makeRouteTable } from "./RouteTable.js"
import { AfterListen, BodyRules, FastPaths, ReadinessChecks } from "./ServerRegistries.js"

/** The address the server actually listens on (the port is chosen by the system when 0 was asked). */
export class ServerAddress extends Context.Tag("ServerAddress")<
  ServerAddress,
  { readonly host: string; readonly port: number; readonly url: string }
>() {}

export interface NodeServerOptions {
  readonly host: string
  readonly port: number
  readonly maxBodyBytes: number
  readonly accessLog: boolean
  /** The deadlines and shutdown timings (ServerConfig.ts has their meaning); defaults when left out. */
  readonly headersTimeoutMs?: number
  readonly requestTimeoutMs?: number
  readonly handlerTimeoutMs?: number
  readonly streamTimeoutMs?: number
  readonly drainDelayMs?: number
  readonly shutdownGraceMs?: number
}

/** The defaults of ServerConfig.ts, for servers built without it (tests of the edge). */
const defaults = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  handlerTimeoutMs: 15_000,
  streamTimeoutMs: 300_000,
  drainDelayMs: 5_000,
  shutdownGraceMs: 20_000
}

/** Longer than the idle timeouts of common balancers (60 s), so they close idle connections first. */
const keepAliveTimeoutMs = 65_000
/** How long a connection with nothing in flight must be idle before closing closes it (no drain delay). */
const quietMs = 250
/** How often node looks for requests over their headers or request timeout. */
const timeoutCheckMs = 1_000

const noRoutes = makeRouteTable([])

const internalError = envelopeAnswer(internalErrorEnvelope)

export const layerNodeServer = (options: NodeServerOptions) =>
  Layer.scoped(
    ServerAddress,
    Effect.gen(function* () {
      const settings = { ...defaults, ...options }
      const router = yield* HttpLayerRouter.HttpRouter
      // Traces and request measures, when either is exported (nothing at all otherwise).
      const telemetry = Option.getOrUndefined(yield* Effect.serviceOption(ServerTelemetry))
      const app = Effect.catchAllCause(
        ignoreMediaTypeWithoutBody(router.asHttpEffect()).pipe(withDeadlines(settings)),
        (cause) => causeResponse(cause, noRoutes)
      )
      // Requests run with the tracer on only when traces are exported: an untraced request pays for
      // none of the spans of its services, repositories and SQL calls, which cost a few microseconds
      // each even when nothing records them. The platform's own request span stays off: the server
      // span is ours (RequestTelemetry.ts), named by route and without the query string or headers.
      const handleWithEffect = yield* NodeHttpServer.makeHandler(
        telemetry === undefined ? app : telemetry.within(app)
      ).pipe(
        Effect.locally(HttpMiddleware.currentTracerDisabledWhen, () => true),
        Effect.withTracerEnabled(telemetry?.tracing ?? false)
      )
      const runtime = yield* Effect.runtime<never>()
      const runFork = Runtime.runFork(runtime)
      const bodies = makeBodyPolicy(settings.maxBodyBytes, (yield* BodyRules).all())

      const server = Http.createServer({
        headersTimeout: settings.headersTimeoutMs,
        requestTimeout: settings.requestTimeoutMs,
        connectionsCheckingInterval: timeoutCheckMs,
        keepAliveTimeout: keepAliveTimeoutMs,
        // Checked below, so that the 400 carries the envelope.
        requireHostHeader: false
      })
      const drain = makeConnectionDrain(server)
      const probes = makeProbes({
        checks: (yield* ReadinessChecks).all(),
        draining: drain.draining,
        runPromise: Runtime.runPromise(runtime)
      })
      const fast = [probes, ...(yield* FastPaths).all()]

      const route = (
        request: Http.IncomingMessage,
        response: Http.ServerResponse,
        observation: RequestObservation | undefined
      ) => {
        try {
          for (const handler of fast) {
            const answered = handler(request, response)
            if (answered !== false) {
              observation?.answered(answered)
              return
            }
          }
        } catch (defect) {
          // A fast path is plain code outside the runtime: a bug there gets what a defect in a
          // handler gets (the 500 envelope and a log line with its cause), not a crashed process.
          runFork(Effect.logError("Unhandled failure while answering a request", Cause.die(defect)))
          if (response.headersSent) response.destroy()
          else writeAnswer(internalError, request, response)
          return
        }
        observation?.routed()
        handleWithEffect(request, response)
      }

      const receive = (
        request: Http.IncomingMessage,
        response: Http.ServerResponse,
        expectsContinue: boolean
      ) => {
        drain.track(request, response)
        if (settings.accessLog) logAccess(request, response)
        const observation = telemetry?.observe(request, response)
        if (lacksHost(request)) return answerMissingHost(request, response)
        // Nothing here reads the body of a GET or HEAD, so only other methods meet the body rules.
        const method = request.method
        if (method === "GET" || method === "HEAD") {
          if (expectsContinue) response.writeContinue()
          route(request, response, observation)
        } else
          bodies.apply(request, response, (routed) => route(routed, response, observation), expectsContinue)
      }

      server.on("request", (request, response) => receive(request, response, false))
      // With a listener, node leaves `100 Continue` to us: it is sent only if the headers pass.
      server.on("checkContinue", (request, response) => receive(request, response, true))
      server.on("checkExpectation", (request, response) => {
        drain.track(request, response)
        answerExpectationFailed(request, response)
      })
      // Requests node cannot parse or did not receive in time still get the envelope.
      server.on("clientError", answerClientError)

      // SIGTERM is how orchestrators ask an instance to leave: readiness fails at once, and the
      // listener stays open for the drain delay so that balancers notice before connections are
      // refused. (SIGINT, a person at a terminal, and tests closing the layer skip the delay.)
      let terminated = false
      const onTerminate = () => {
        terminated = true
        drain.startDraining()
      }
      yield* Effect.acquireRelease(
        Effect.async<void, Error>((resume) => {
          const onError = (error: Error) => resume(Effect.fail(error))
          server.once("error", onError)
          server.listen(settings.port, settings.host, () => {
            server.off("error", onError)
            process.on("SIGTERM", onTerminate)
            resume(Effect.void)
          })
        }),
        () =>
          Effect.gen(function* () {
            drain.startDraining()
            if (terminated) {
              yield* Effect.logInfo(
                `Draining: not ready; closing the listener in ${settings.drainDelayMs} ms`
              )
              yield* Effect.sleep(Duration.millis(settings.drainDelayMs))
            }
            // Idle connections are closed after the drain delay, when a balancer has let go of its own.
            const idleMs = terminated ? Math.max(quietMs, settings.drainDelayMs) : quietMs
            yield* Effect.promise(() => drain.close(settings.shutdownGraceMs, idleMs))
            process.off("SIGTERM", onTerminate)
          })
      )
      yield* Effect.forkScoped(Effect.all((yield* AfterListen).all(), { discard: true }))
      const address = server.address() as AddressInfo
      const host = address.family === "IPv6" ? `[${address.address}]` : address.address
      return { host: address.address, port: address.port, url: `http://${host}:${address.port}` }
    })
  )
