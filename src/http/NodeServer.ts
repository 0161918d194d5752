// The process's one HTTP server: a plain `node:http` listener that first offers each request to the
// registered fast paths (precomputed answers that need no Effect runtime) and hands everything else
// to the Effect router. Listening and closing are tied to the layer's scope.
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import { BadRequest, bodyTooLarge, internalErrorEnvelope, toEnvelope } from "./ApiError.js"
import { causeResponse } from "./ErrorResponse.js"
import { writeNodeEnvelope, writeNodeError } from "./NodeErrorWriter.js"
import { makeRouteTable } from "./RouteTable.js"

/** Answers a request synchronously and returns true, or returns false to let the router answer. */
export type FastHandler = (request: Http.IncomingMessage, response: Http.ServerResponse) => boolean

/** Where features register their fast paths; they run in registration order. */
export class FastPaths extends Context.Tag("FastPaths")<
  FastPaths,
  { readonly add: (handler: FastHandler) => void; readonly all: () => ReadonlyArray<FastHandler> }
>() {
  static readonly layer = Layer.sync(FastPaths, () => {
    const handlers: Array<FastHandler> = []
    return { add: (handler) => handlers.push(handler), all: () => handlers }
  })

  static readonly register = (handler: FastHandler) =>
    Layer.effectDiscard(Effect.map(FastPaths, (paths) => paths.add(handler)))
}

/**
 * Work that should not delay start-up but should happen soon after (warming caches): features
 * register it here and the server runs it in the background once it listens.
 */
export class AfterListen extends Context.Tag("AfterListen")<
  AfterListen,
  {
    readonly add: (task: Effect.Effect<void>) => void
    readonly all: () => ReadonlyArray<Effect.Effect<void>>
  }
>() {
  static readonly layer = Layer.sync(AfterListen, () => {
    const tasks: Array<Effect.Effect<void>> = []
    return { add: (task) => tasks.push(task), all: () => tasks }
  })
}

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

/**
 * Refuses a body whose declared length is over the limit before any of it is read: answering 413
 * and discarding what the client still sends keeps the connection usable. (When the platform hits
 * its own limit while reading, it destroys the socket, so the client would see a reset instead.)
 * Beyond four times the limit the body is not worth reading: the connection is closed instead.
 */
export const refuseOversizedBody = (
  request: Http.IncomingMessage,
  response: Http.ServerResponse,
  maxBytes: number
): boolean => {
  const declared = request.headers["content-length"]
  if (declared === undefined || Number(declared) <= maxBytes) return false
  const tooLarge = Number(declared) > maxBytes * 4
  writeNodeError(request, response, bodyTooLarge(maxBytes), tooLarge ? { connection: "close" } : {})
  if (!tooLarge) request.resume()
  return true
}

/**
 * A body without a declared length can only be measured while it is read, and the platform stops
 * reading one over the limit by destroying the request, which takes the socket with it before the
 * 413 is written. For such requests, destroying an unfinished body discards the rest of it instead
 * (nothing keeps it), and the connection is closed once the answer is sent.
 */
const answerBeforeClosing = (request: Http.IncomingMessage, response: Http.ServerResponse) => {
  const destroy = request.destroy.bind(request)
  request.destroy = (error?: Error) => {
    if (request.complete || response.writableEnded) return destroy(error)
    response.shouldKeepAlive = false
    request.removeAllListeners("data")
    request.resume()
    return request
  }
}

const hasBody = (request: Http.IncomingMessage) =>
  request.headers["transfer-encoding"] !== undefined ||
  (request.headers["content-length"] !== undefined && request.headers["content-length"] !== "0")

/**
 * Every endpoint of this service reads JSON. A body in another media type is refused up front:
 * left to the platform, a malformed multipart body fails deep inside its parser as a defect.
 */
export const refuseNonJsonBody = (request: Http.IncomingMessage, response: Http.ServerResponse): boolean => {
  const type = request.headers["content-type"]
  if (type === undefined) return false
  if (!hasBody(request)) {
    // A media type without a body describes nothing; left in place, a multipart one sends the
    // platform into its multipart parser, which fails on the empty stream by closing the socket.
    delete request.headers["content-type"]
    return false
  }
  const media = type.split(";")[0]?.trim().toLowerCase() ?? ""
  if (media === "application/json" || media.endsWith("+json")) return false
  writeNodeError(
    request,
    response,
    new BadRequest({
      message: `Request bodies must be application/json, not ${media || "an empty media type"}.`
    })
  )
  request.resume()
  return true
}

const logAccess = (request: Http.IncomingMessage, response: Http.ServerResponse, started: bigint) => {
  response.once("finish", () => {
    const url = request.url ?? "/"
    const q = url.indexOf("?")
    // The path only: query strings may carry values a log should not keep.
    const path = q === -1 ? url : url.slice(0, q)
    const ms = Number(process.hrtime.bigint() - started) / 1e6
    process.stdout.write(`${request.method} ${path} ${response.statusCode} ${ms.toFixed(2)}ms\n`)
  })
}

export const layerNodeServer = (options: NodeServerOptions) =>
  Layer.scoped(
    ServerAddress,
    Effect.gen(function* () {
      const router = yield* HttpLayerRouter.HttpRouter
      const fastPaths = yield* FastPaths
      const app = Effect.catchAllCause(router.asHttpEffect(), (cause) => causeResponse(cause, noRoutes))
      const handleWithEffect = yield* NodeHttpServer.makeHandler(app).pipe(
        HttpIncomingMessage.withMaxBodySize(Option.some(options.maxBodyBytes)),
        Effect.locally(HttpMiddleware.currentTracerDisabledWhen, () => !options.tracing)
      )
      const fast = fastPaths.all()
      const runFork = Runtime.runFork(yield* Effect.runtime<never>())
      const server = Http.createServer((request, response) => {
        if (options.accessLog) logAccess(request, response, process.hrtime.bigint())
        // Bodies are checked where they can matter: nothing here reads the body of a GET or HEAD.
        const method = request.method
        if (method !== "GET" && method !== "HEAD") {
          if (refuseOversizedBody(request, response, options.maxBodyBytes)) return
          if (refuseNonJsonBody(request, response)) return
          if (request.headers["content-length"] === undefined) answerBeforeClosing(request, response)
        }
        try {
          for (const handler of fast) {
            if (handler(request, response)) return
          }
        } catch (defect) {
          // A fast path is plain code outside the runtime: a bug there gets what a defect in a
          // handler gets (the 500 envelope and a log line with its cause), not a crashed process.
          runFork(Effect.logError("Unhandled failure while answering a request", Cause.die(defect)))
          if (response.headersSent) response.destroy()
          else writeNodeEnvelope(request, response, internalErrorEnvelope)
          return
        }
        handleWithEffect(request, response)
      })
      server.keepAliveTimeout = 65_000
      // Requests node cannot parse (bad characters, broken framing) still get the envelope.
      server.on("clientError", (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
        if (!socket.writable) return socket.destroy()
        const body = JSON.stringify(
          toEnvelope(
            new BadRequest({ message: `The request is not valid HTTP (${error.code ?? "parse error"}).` })
          )
        )
        // An answer to HEAD carries no body, even this one.
        const isHead = error.rawPacket?.subarray(0, 5).toString("latin1") === "HEAD "
        socket.end(
          `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${isHead ? "" : body}`
        )
      })
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
