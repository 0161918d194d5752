// The body rules of the server's edge, applied once, to every request that may carry a body, before
// any fast path or router sees it: each route has one limit (the server's MAX_BODY_BYTES, or a lower
// one its HttpApi endpoint declares with `MaxBodyBytes`, such as the batch's 64 KiB), and bodies are
// JSON unless the route declares the media types it reads (OAuth's form posts). Over the limit is a
// 413 in the envelope (or the route's own error format), never a reset connection.
import * as Http from "node:http"
import * as Headers from "@effect/platform/Headers"
import * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as FindMyWay from "find-my-way-ts"
import { type ApiError, BadRequest, bodyTooLarge } from "./ApiError.js"
import { errorAnswer, writeAnswer } from "./ErrorAnswer.js"
import type { RouteBodyLimit } from "./ServerRegistries.js"

/** Annotates an HttpApi endpoint with a body limit of its own (the lower of it and the server's applies). */
export class MaxBodyBytes extends Context.Tag("MaxBodyBytes")<MaxBodyBytes, number>() {}

/** The body limits an HttpApi's endpoints declare. */
export const bodyLimitsOf = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): Array<RouteBodyLimit> => {
  const limits: Array<RouteBodyLimit> = []
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, mergedAnnotations }) => {
      const maxBytes = Context.getOption(mergedAnnotations, MaxBodyBytes)
      if (Option.isSome(maxBytes)) {
        limits.push({ method: endpoint.method, path: endpoint.path, maxBytes: maxBytes.value })
      }
    }
  })
  return limits
}

type HeaderValues = { readonly [name: string]: string | ReadonlyArray<string> | undefined }

const hasBody = (headers: HeaderValues) =>
  headers["transfer-encoding"] !== undefined ||
  (headers["content-length"] !== undefined && headers["content-length"] !== "0")

/**
 * A declared length over the limit is refused before any of it is read: answering 413 and
 * discarding what the client still sends keeps the connection usable. Beyond four times the limit
 * the body is not worth reading: the connection is closed after the answer instead.
 */
const refuseDeclared = (
  request: Http.IncomingMessage,
  response: Http.ServerResponse,
  declared: number,
  rule: AppliedRule
) => {
  const hopeless = declared > rule.maxBytes * 4
  refuse(request, response, rule, bodyTooLarge(rule.maxBytes), hopeless ? { connection: "close" } : {})
  if (!hopeless) request.resume()
}

/** Writes a refusal of the edge in the envelope, or in the route's own format when it has one. */
const refuse = (
  request: Http.IncomingMessage,
  response: Http.ServerResponse,
  rule: AppliedRule,
  error: ApiError,
  extraHeaders: Readonly<Record<string, string>> = {}
) => {
  const answer = rule.refusal === undefined ? errorAnswer(error) : rule.refusal(error)
  writeAnswer({ ...answer, headers: { ...answer.headers, ...extraHeaders } }, request, response)
}

const isJson = (media: string) => media === "application/json" || media.endsWith("+json")

/**
 * Every endpoint reads JSON unless its route declares other media types. A body in another media
 * type is refused up front: left to the platform, a malformed multipart body fails deep inside its
 * parser as a defect.
 */
const refuseUnreadable = (
  request: Http.IncomingMessage,
  response: Http.ServerResponse,
  rule: AppliedRule
): boolean => {
  const type = request.headers["content-type"]
  if (type === undefined || !hasBody(request.headers)) return false
  const media = type.split(";")[0]?.trim().toLowerCase() ?? ""
  if (rule.mediaTypes === undefined ? isJson(media) : rule.mediaTypes.includes(media)) return false
  const expected = rule.mediaTypes === undefined ? "application/json" : rule.mediaTypes.join(" or ")
  refuse(
    request,
    response,
    rule,
    new BadRequest({ message: `Request bodies must be ${expected}, not ${media || "an empty media type"}.` })
  )
  request.resume()
  return true
}

/** A request like `request`, whose body is `body`, already received in full. */
const replay = (request: Http.IncomingMessage, body: Buffer): Http.IncomingMessage => {
  // The same socket, so the client's address and the response's lifetime are the request's own.
  const replayed = new Http.IncomingMessage(request.socket)
  replayed.method = request.method
  replayed.url = request.url
  replayed.httpVersion = request.httpVersion
  replayed.httpVersionMajor = request.httpVersionMajor
  replayed.httpVersionMinor = request.httpVersionMinor
  replayed.headers = request.headers
  replayed.rawHeaders = request.rawHeaders
  replayed.trailers = request.trailers
  replayed.rawTrailers = request.rawTrailers
  // Complete, so a reader that destroys it once read (the platform does) leaves the socket alone.
  replayed.complete = true
  replayed.push(body)
  replayed.push(null)
  return replayed
}

/**
 * A body without a declared length can only be measured while it is read, so it is read here,
 * under the limit, before anything routes it. (The platform's reader stops at its limit by
 * destroying the request, which takes the socket with it before a 413 can be written.) Past the
 * limit the 413 goes out at once and the connection closes after it, the rest of the body
 * discarded as it arrives; a body within the limit is handed on as a request that replays it.
 */
const readUnderLimit = (
  request: Http.IncomingMessage,
  response: Http.ServerResponse,
  rule: AppliedRule,
  next: (request: Http.IncomingMessage) => void
) => {
  const maxBytes = rule.maxBytes
  const chunks: Array<Buffer> = []
  let bytes = 0
  request.on("data", (chunk: Buffer) => {
    if (bytes > maxBytes) return
    bytes += chunk.byteLength
    if (bytes <= maxBytes) {
      chunks.push(chunk)
      return
    }
    chunks.length = 0
    refuse(request, response, rule, bodyTooLarge(maxBytes), { connection: "close" })
  })
  request.on("end", () => {
    if (bytes <= maxBytes) next(replay(request, Buffer.concat(chunks, bytes)))
  })
}

export interface BodyPolicy {
  /**
   * Applies the body rules to a request that may carry a body: either answers it (413, 400) or
   * hands `next` the request to route, at once or, for a body of unknown length, once it is read.
   */
  readonly apply: (
    request: Http.IncomingMessage,
    response: Http.ServerResponse,
    next: (request: Http.IncomingMessage) => void
  ) => void
}

/** A route's rules with the server's limit applied. */
interface AppliedRule extends Pick<RouteBodyLimit, "mediaTypes" | "refusal"> {
  readonly maxBytes: number
}

export const makeBodyPolicy = (maxBodyBytes: number, routes: ReadonlyArray<RouteBodyLimit>): BodyPolicy => {
  // Route parameters of any length must still find their route's rules.
  const rules = FindMyWay.make<AppliedRule>({ maxParamLength: Number.MAX_SAFE_INTEGER })
  for (const route of routes) {
    rules.on(route.method, route.path, {
      maxBytes: Math.min(route.maxBytes ?? maxBodyBytes, maxBodyBytes),
      ...(route.mediaTypes === undefined ? {} : { mediaTypes: route.mediaTypes }),
      ...(route.refusal === undefined ? {} : { refusal: route.refusal })
    })
  }
  const serverRule: AppliedRule = { maxBytes: maxBodyBytes }
  return {
    apply: (request, response, next) => {
      const rule = rules.find(request.method ?? "", request.url ?? "/")?.handler ?? serverRule
      const declared = request.headers["content-length"]
      if (declared !== undefined && Number(declared) > rule.maxBytes) {
        return refuseDeclared(request, response, Number(declared), rule)
      }
      if (refuseUnreadable(request, response, rule)) return
      if (declared === undefined && request.headers["transfer-encoding"] !== undefined) {
        return readUnderLimit(request, response, rule, next)
      }
      next(request)
    }
  }
}

/**
 * A media type without a body describes nothing; left in place, a multipart one sends the platform
 * into its multipart parser, which fails on the empty stream by closing the socket. The router
 * therefore sees such a request without its Content-Type, through the platform's own `modify`.
 */
export const ignoreMediaTypeWithoutBody = <A, E, R>(
  app: Effect.Effect<A, E, R>
): Effect.Effect<A, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    request.headers["content-type"] === undefined ||
    request.method === "GET" ||
    request.method === "HEAD" ||
    hasBody(request.headers)
      ? app
      : Effect.provideService(
          app,
          HttpServerRequest.HttpServerRequest,
          request.modify({ headers: Headers.remove(request.headers, "content-type") })
        )
  )
