// The body rules of the server's edge, applied once, to every request that may carry a body, before
// any fast path or router sees it: each route has one limit (the server's MAX_BODY_BYTES, or a lower
// one its HttpApi endpoint declares with `MaxBodyBytes`, such as the batch's 64 KiB) and the media
// types it reads (JSON unless it declares more with `BodyMediaTypes`; see BodyMediaType.ts), and how it answers
// the edge's refusals when not in the envelope (OAuth's error format). Over the
// limit is a 413 in the envelope, never a reset connection. The body is then read here, in full,
// so that JSON can be judged (its nesting depth, JsonDepth.ts) before anything parses it, and the
// router is handed a request that replays it, labelled `application/json` whichever JSON type the
// client named, so every reader downstream reads it as JSON. How long reading may take is node's
// `requestTimeout` (NodeServer.ts).
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
import {
  type BodyMediaType,
  BodyMediaTypes,
  canonicalJson,
  jsonBodies,
  judgeMediaType
} from "./BodyMediaType.js"
import { errorAnswer, writeAnswer } from "./ErrorAnswer.js"
import { exceedsJsonDepth, maxJsonDepth } from "./JsonDepth.js"
import type { RouteBodyRule } from "./ServerRegistries.js"

/** Annotates an HttpApi endpoint with a body limit of its own (the lower of it and the server's applies). */
export class MaxBodyBytes extends Context.Tag("MaxBodyBytes")<MaxBodyBytes, number>() {}

/** The body rules an HttpApi's endpoints declare (`MaxBodyBytes`, `BodyMediaTypes`). */
export const bodyRulesOf = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): Array<RouteBodyRule> => {
  const rules: Array<RouteBodyRule> = []
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, mergedAnnotations }) => {
      const maxBytes = Context.getOption(mergedAnnotations, MaxBodyBytes)
      const mediaTypes = Context.getOption(mergedAnnotations, BodyMediaTypes)
      if (Option.isNone(maxBytes) && Option.isNone(mediaTypes)) return
      rules.push({
        method: endpoint.method,
        path: endpoint.path,
        ...(Option.isSome(maxBytes) ? { maxBytes: maxBytes.value } : {}),
        ...(Option.isSome(mediaTypes) ? { mediaTypes: mediaTypes.value } : {})
      })
    }
  })
  return rules
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
  rule: ResolvedRule
) => {
  const hopeless = declared > rule.maxBytes * 4
  refuse(request, response, rule, bodyTooLarge(rule.maxBytes), hopeless ? { connection: "close" } : {})
  if (!hopeless) request.resume()
}

const tooDeep = new BadRequest({
  message: `The JSON body is nested more than ${maxJsonDepth} levels deep.`,
  data: { maxDepth: maxJsonDepth }
})

/** Writes a refusal of the edge in the envelope, or in the route's own format when it has one. */
const refuse = (
  request: Http.IncomingMessage,
  response: Http.ServerResponse,
  rule: ResolvedRule,
  error: ApiError,
  extraHeaders: Readonly<Record<string, string>> = {}
) => {
  const answer = rule.refusal === undefined ? errorAnswer(error) : rule.refusal(error)
  writeAnswer({ ...answer, headers: { ...answer.headers, ...extraHeaders } }, request, response)
}

/** The bodies of the replayed requests, for fast paths that answer from the body (receivedBody). */
const replayedBodies = new WeakMap<Http.IncomingMessage, Buffer>()

/**
 * The body of a request the edge has read in full (any request with a body that reached a fast
 * path), without consuming it: the router still reads it from the request if the fast path passes.
 */
export const receivedBody = (request: Http.IncomingMessage): Buffer | undefined => replayedBodies.get(request)

/** A request like `request`, whose body is `body`, already received in full, with `headers`. */
const replay = (request: Http.IncomingMessage, body: Buffer, headers: Http.IncomingHttpHeaders) => {
  // The same socket, so the client's address and the response's lifetime are the request's own.
  const replayed = new Http.IncomingMessage(request.socket)
  replayed.method = request.method
  replayed.url = request.url
  replayed.httpVersion = request.httpVersion
  replayed.httpVersionMajor = request.httpVersionMajor
  replayed.httpVersionMinor = request.httpVersionMinor
  replayed.headers = headers
  replayed.rawHeaders = request.rawHeaders
  replayed.trailers = request.trailers
  replayed.rawTrailers = request.rawTrailers
  // Complete, so a reader that destroys it once read (the platform does) leaves the socket alone.
  replayed.complete = true
  replayed.push(body)
  replayed.push(null)
  replayedBodies.set(replayed, body)
  return replayed
}

/**
 * Reads the body under the limit, then hands it to `received`. A declared length was checked
 * before; a body without one (chunked) can only be measured while it arrives. (The platform's
 * reader stops at its limit by destroying the request, which takes the socket with it before a 413
 * can be written.) Past the limit the 413 goes out at once and the connection closes after it, the
 * rest of the body discarded as it arrives. A client that stops sending is node's `requestTimeout`.
 */
const readUnderLimit = (
  request: Http.IncomingMessage,
  response: Http.ServerResponse,
  rule: ResolvedRule,
  received: (body: Buffer) => void
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
    if (bytes <= maxBytes) received(Buffer.concat(chunks, bytes))
  })
}

export interface BodyPolicy {
  /**
   * Applies the body rules to a request that may carry a body: either answers it (413, 400) or
   * hands `next` the request to route: at once when it has no body, else once the body is read.
   * `expectsContinue` (the client sent `Expect: 100-continue`) asks for `100 Continue` before the
   * body is read, and for none when the request is refused on its headers alone.
   */
  readonly apply: (
    request: Http.IncomingMessage,
    response: Http.ServerResponse,
    next: (request: Http.IncomingMessage) => void,
    expectsContinue?: boolean
  ) => void
}

interface ResolvedRule extends Pick<RouteBodyRule, "refusal"> {
  readonly maxBytes: number
  readonly mediaTypes: ReadonlyArray<BodyMediaType>
}

export const makeBodyPolicy = (maxBodyBytes: number, routes: ReadonlyArray<RouteBodyRule>): BodyPolicy => {
  const fallback: ResolvedRule = { maxBytes: maxBodyBytes, mediaTypes: jsonBodies }
  // Route parameters of any length must still find their route's rule.
  const rules = FindMyWay.make<ResolvedRule>({ maxParamLength: Number.MAX_SAFE_INTEGER })
  for (const route of routes) {
    rules.on(route.method, route.path, {
      maxBytes: Math.min(route.maxBytes ?? maxBodyBytes, maxBodyBytes),
      mediaTypes: route.mediaTypes ?? jsonBodies,
      ...(route.refusal === undefined ? {} : { refusal: route.refusal })
    })
  }
  return {
    apply: (request, response, next, expectsContinue = false) => {
      const rule = rules.find(request.method ?? "", request.url ?? "/")?.handler ?? fallback
      const declared = request.headers["content-length"]
      if (declared !== undefined && Number(declared) > rule.maxBytes) {
        return refuseDeclared(request, response, Number(declared), rule)
      }
      if (!hasBody(request.headers)) return next(request)
      const verdict = judgeMediaType(request.headers["content-type"], rule.mediaTypes)
      if (verdict._tag === "Refused") {
        refuse(request, response, rule, new BadRequest({ message: verdict.message }))
        request.resume()
        return
      }
      if (expectsContinue) response.writeContinue()
      readUnderLimit(request, response, rule, (body) => {
        if (verdict.kind !== "json") return next(replay(request, body, request.headers))
        if (exceedsJsonDepth(body)) return refuse(request, response, rule, tooDeep)
        next(replay(request, body, { ...request.headers, "content-type": canonicalJson }))
      })
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
