// The process's one HTTP server and its lifecycle: a plain `node:http` listener that applies the
// body rules (BodyPolicy.ts), offers each request to the registered fast paths (precomputed answers
// that need no Effect runtime) and hands everything else to the Effect router. Listening and
// closing are tied to the layer's scope.
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Runtime from "effect/Runtime"
import { logAccess } from "./AccessLog.js"
import { internalErrorEnvelope } from "./ApiError.js"
import { ignoreMediaTypeWithoutBody, makeBodyPolicy } from "./BodyPolicy.js"
import { answerClientError } from "./ClientErrors.js"
import { envelopeAnswer, writeAnswer } from "./ErrorAnswer.js"
import { causeResponse } from "./ErrorResponse.js"
import { makeRouteTable } from "./RouteTable.js"
import { AfterListen, BodyLimits, FastPaths } from "./ServerRegistries.js"

/** The address the server actually listens on (the port is chosen by the system when 0 was asked). */
export class ServerAddress extends Context.Tag("ServerAddress")<
  ServerAddress,
  { readonly host: string; readonly port: number; readonly url: string }
>() {}

export interface NodeServerOptions {
  readonly host: string
  readonly port: number
  readonly tracing: boolean
  readonly maxBodyBytes: number
  readonly accessLog: boolean
}

const noRoutes = makeRouteTable([])

const internalError = envelopeAnswer(internalErrorEnvelope)

export const layerNodeServer = (options: NodeServerOptions) =>
  Layer.scoped(
    ServerAddress,
    Effect.gen(function* () {
      const router = yield* HttpLayerRouter.HttpRouter
      const app = Effect.catchAllCause(ignoreMediaTypeWithoutBody(router.asHttpEffect()), (cause) =>
        causeResponse(cause, noRoutes)
      )
      const handleWithEffect = yield* NodeHttpServer.makeHandler(app).pipe(
        Effect.locally(HttpMiddleware.currentTracerDisabledWhen, () => !options.tracing)
      )
      const fast = (yield* FastPaths).all()
      const bodies = makeBodyPolicy(options.maxBodyBytes, (yield* BodyLimits).all())
      const runFork = Runtime.runFork(yield* Effect.runtime<never>())

      const route = (request: Http.IncomingMessage, response: Http.ServerResponse) => {
        try {
          for (const handler of fast) {
            if (handler(request, response)) return
          }
        } catch (defect) {
          // A fast path is plain code outside the runtime: a bug there gets what a defect in a
          // handler gets (the 500 envelope and a log line with its cause), not a crashed process.
          runFork(Effect.logError("Unhandled failure while answering a request", Cause.die(defect)))
          if (response.headersSent) response.destroy()
          else writeAnswer(internalError, request, response)
          return
        }
        handleWithEffect(request, response)
      }

      const server = Http.createServer((request, response) => {
        if (options.accessLog) logAccess(request, response)
        // Nothing here reads the body of a GET or HEAD, so only other methods meet the body rules.
        const method = request.method
        if (method === "GET" || method === "HEAD") route(request, response)
        else bodies.apply(request, response, (routed) => route(routed, response))
      })
      server.keepAliveTimeout = 65_000
      // Requests node cannot parse (bad characters, broken framing) still get the envelope.
      server.on("clientError", answerClientError)
      yield* Effect.acquireRelease(
        Effect.async<void, Error>((resume) => {
          const onError = (error: Error) => resume(Effect.fail(error))
          server.once("error", onError)
          server.listen(options.port, options.host, () => {
            server.off("error", onError)
            resume(Effect.void)
          })
        }),
        () =>
          Effect.async<void>((resume) => {
            // Requests in flight get a moment to finish; then open connections (an event stream a
            // client abandoned mid-body, say) are cut, or closing would wait for their timeouts.
            const grace = setTimeout(() => server.closeAllConnections(), 2_000)
            server.close(() => {
              clearTimeout(grace)
              resume(Effect.void)
            })
            server.closeIdleConnections()
          })
      )
      yield* Effect.forkScoped(Effect.all((yield* AfterListen).all(), { discard: true }))
      const address = server.address() as AddressInfo
      const host = address.family === "IPv6" ? `[${address.address}]` : address.address
      return { host: address.address, port: address.port, url: `http://${host}:${address.port}` }
    })
  )
