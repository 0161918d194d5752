// `/mcp` and `/mcp/docs` over Streamable HTTP, stateless, in every protocol revision the SDK serves
// (McpHandler.ts): every POST gets a fresh MCP server answering in JSON (see `exchange` for the
// bridge). Before the SDK sees a request we apply our rules: Host and Origin (403), methods (405: without sessions there is
// no stream to GET and nothing to DELETE), body size (413) and the catalog's rate limit (429, one
// request per JSON-RPC message, so a batch costs what its messages would one by one), all in the
// error envelope.

import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type { AuthInfo } from "@modelcontextprotocol/server"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Runtime from "effect/Runtime"
import { MethodNotAllowed, PayloadTooLarge } from "../../http/ApiError.js"
import { causeResponse, errorResponse } from "../../http/ErrorResponse.js"
import { ProtectedResources } from "../../http/ProtectedResources.js"
import { makeRouteTable } from "../../http/RouteTable.js"
import { FastPaths } from "../../http/ServerRegistries.js"
import type { Answer, AnswerMemo } from "../AnswerMemo.js"
import { Catalog } from "../Catalog.js"
import { CatalogAdmission, type CatalogAdmissionService } from "../CatalogAdmission.js"
import { CatalogConfig } from "../CatalogConfig.js"
import { maxMcpBodyBytes } from "../CatalogLimits.js"
import { CatalogReads } from "../CatalogReads.js"
import { Search } from "../Search.js"
import { catalogTools } from "./CatalogTools.js"
import { catalogView } from "./CatalogView.js"
import { docsResources, docsTools } from "./DocsTools.js"
import { type McpAccess, makeMcpAccess } from "./McpAccess.js"
import { makeMcpFastPath, makeMcpMemo } from "./McpFastPath.js"
import {
  type McpErrorReporter,
  type McpHandler,
  type McpServerFactory,
  makeMcpHandler
} from "./McpHandler.js"
import { makeToolServerFactory } from "./ToolServer.js"

const allowedMethods = ["POST", "OPTIONS"]
/** The MCP routes answer every method themselves, so failures never need a route table. */
const noRoutes = makeRouteTable([])

/** What a browser from an allowed origin needs to hear before it sends the POST. */
const preflightHeaders = {
  "access-control-allow-methods": "POST",
  "access-control-allow-headers":
    "content-type, accept, authorization, mcp-protocol-version, mcp-method, mcp-name, mcp-session-id, last-event-id",
  "access-control-max-age": "600"
}

/** What the SDK answers when the body is not JSON (it does not parse a body it is handed). */
const parseError = HttpServerResponse.unsafeJson(
  { jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON" }, id: null },
  { status: 400 }
)

/** The body parsed as JSON, or undefined when it is not JSON. */
const parseBody = (text: string): { readonly body: unknown } | undefined => {
  try {
    return { body: JSON.parse(text) }
  } catch {
    return undefined
  }
}

/**
 * What a POST costs of the client's rate limit: one per JSON-RPC message, so that a batch (an array
 * of messages, which the 2025-03-26 revision allows and later ones dropped) costs what the same
 * messages sent one by one would.
 */
const messageCount = (body: unknown) => (Array.isArray(body) ? Math.max(1, body.length) : 1)

/**
 * One JSON-RPC exchange through the SDK (McpHandler.ts). The body was read and parsed by the caller
 * (bounded like every body) and is handed over parsed, with a bodiless web Request for the headers:
 * letting the SDK read a web stream made of the node request cost more than everything else in the
 * exchange. Our answers are plain JSON, complete when the handler resolves, so they are read as text.
 */
const exchange = (
  handler: McpHandler,
  request: HttpServerRequest.HttpServerRequest,
  url: string,
  parsedBody: unknown,
  authInfo: AuthInfo | undefined
) =>
  Effect.promise(async (): Promise<Answer> => {
    const answer = await handler(
      new Request(url, { method: "POST", headers: request.headers }),
      parsedBody,
      authInfo
    )
    return { status: answer.status, headers: Object.fromEntries(answer.headers), body: await answer.text() }
  })

/** The SDK's answer as a platform response. */
const responseOf = ({ status, headers, body }: Answer) =>
  body === ""
    ? HttpServerResponse.empty({ status, headers })
    : HttpServerResponse.text(body, {
        status,
        headers,
        contentType: headers["content-type"] ?? "application/json"
      })

/**
 * Who is calling, or the answer refusing them: the public servers take everyone (no `AuthInfo`); a
 * protected one (`/mcp/agent`) first authenticates the caller and answers 401 when it cannot.
 */
export type CallerOfRequest = (
  request: HttpServerRequest.HttpServerRequest
) => Effect.Effect<Either.Either<AuthInfo | undefined, HttpServerResponse.HttpServerResponse>>

/** The public servers: the same for everyone. */
const anyone: CallerOfRequest = () => Effect.succeed(Either.right(undefined))

/**
 * An MCP endpoint with the rules above; `callerOf` runs last, after the request passed them, so a
 * protected server never authenticates a request the public ones would refuse. A public endpoint
 * keeps its answers to lookups in `memo`, for its fast path to answer again (McpFastPath.ts).
 */
export const mcpEndpoint = (
  handler: McpHandler,
  callerOf: CallerOfRequest,
  access: McpAccess,
  admission: CatalogAdmissionService,
  memo?: AnswerMemo
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const headers = request.headers
    const refusal = access.refusal(headers)
    if (refusal !== undefined) return errorResponse(refusal)
    const cors = access.corsHeaders(headers.origin)
    const withCors = (response: HttpServerResponse.HttpServerResponse) =>
      HttpServerResponse.setHeaders(response, cors)
    if (request.method === "OPTIONS") {
      return HttpServerResponse.empty({
        status: 204,
        headers: {
          allow: allowedMethods.join(", "),
          ...cors,
          ...(cors.vary === undefined ? {} : preflightHeaders)
        }
      })
    }
    if (request.method !== "POST") {
      return withCors(
        errorResponse(
          new MethodNotAllowed({
            message: `${request.method} is not allowed: this MCP endpoint is stateless (no sessions, no event stream); POST JSON-RPC messages.`,
            allow: allowedMethods
          })
        )
      )
    }
    if (Number(headers["content-length"] ?? 0) > maxMcpBodyBytes) {
      return withCors(
        errorResponse(
          new PayloadTooLarge({
            message: `An MCP request body holds at most ${maxMcpBodyBytes} bytes.`,
            data: { maxBytes: maxMcpBodyBytes }
          })
        )
      )
    }
    // A body that cannot be read (400) is answered in the envelope, like any other failure. (A body
    // over MAX_BODY_BYTES never gets here: the server's edge answers 413.)
    const text = yield* Effect.either(request.text)
    if (Either.isLeft(text)) return withCors(yield* causeResponse(Cause.fail(text.left), noRoutes))
    const parsed = parseBody(text.right)
    const admitted = admission.admit(
      admission.client(request),
      parsed === undefined ? 1 : messageCount(parsed.body)
    )
    if (Either.isLeft(admitted)) return withCors(errorResponse(admitted.left))
    // A protected server authenticates first: without a valid token the answer is its 401.
    const caller = yield* callerOf(request)
    if (Either.isLeft(caller)) return withCors(caller.left)
    if (parsed === undefined) return withCors(parseError)
    // The SDK answers protocol problems itself (406 without both Accept types, 415, invalid JSON-RPC,
    // the 2026-07-28 revision's header and envelope checks).
    const url = `http://${headers.host ?? "localhost"}${request.url}`
    const memoKey = memo?.keyOf(headers, parsed.body)
    const answered = Effect.map(exchange(handler, request, url, parsed.body, caller.right), (answer) => {
      if (memoKey !== undefined) memo?.keep(memoKey, answer)
      return responseOf(answer)
    })
    return withCors(yield* Effect.catchAllCause(answered, (cause) => causeResponse(cause, noRoutes)))
  })

/**
 * How long clients may reuse the public servers' lists and documents: the catalog's own time for a
 * detail (catalog-extensions §5), since they change only with the snapshot.
 */
export const publicCacheHint = { ttlMs: 300_000, cacheScope: "public" } as const

/**
 * Where the SDK reports what it refused or failed on outside a response (a rejected request, a
 * factory that threw): the answer already says it to the client, so the log keeps it at debug.
 */
export const mcpErrorLog = Effect.map(
  Effect.runtime<never>(),
  (runtime): McpErrorReporter =>
    (error) =>
      Runtime.runFork(runtime)(Effect.logDebug("MCP request refused or failed", error.message))
)

/** The Host and Origin rules of every MCP endpoint of this service, from its settings. */
export const mcpAccess = Effect.gen(function* () {
  const config = yield* CatalogConfig
  // The registry of protected resources knows the service's public origin (PUBLIC_ORIGIN).
  const { origin } = yield* ProtectedResources
  return makeMcpAccess({
    listenHost: config.listenHost,
    publicOrigin: origin,
    allowedHosts: config.mcpAllowedHosts,
    allowedOrigins: config.mcpAllowedOrigins
  })
})

/** Both MCP servers on the shared router, built from the catalog's services. */
export const McpRoutes = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const catalog = yield* Catalog
    const search = yield* Search
    const reads = yield* CatalogReads
    const admission = yield* CatalogAdmission
    const onError = yield* mcpErrorLog
    const access = yield* mcpAccess
    const catalogServer = makeToolServerFactory({
      name: "podcast-catalog",
      title: "Podcast catalog",
      version: "1.0.0",
      instructions:
        "Read-only tools over a podcast's episodes and transcripts. Find episodes with search_episodes, read one " +
        "with get_episode, find what was said with search_transcripts, read a transcript with get_transcript " +
        "(check transcriptAvailable first). Slugs are episode numbers as text.",
      tools: catalogTools(reads),
      views: [catalogView(catalog.episodes)],
      cacheHint: publicCacheHint
    })
    const docsServer = makeToolServerFactory({
      name: "podcast-catalog-docs",
      title: "Podcast catalog documentation",
      version: "1.0.0",
      instructions:
        "The service's documentation: search it with search_docs, read a page with get_doc, or list and read " +
        "the pages as resources.",
      tools: docsTools(catalog, search),
      resources: docsResources(catalog),
      cacheHint: publicCacheHint
    })
    const memos = new Map([
      ["/mcp", makeMcpMemo()],
      ["/mcp/docs", makeMcpMemo()]
    ])
    // With the fast path off (CATALOG_FAST_PATH=false), nothing is kept and the SDK answers everything.
    const fast = (yield* CatalogConfig).fastPath
    if (fast) (yield* FastPaths).add(makeMcpFastPath(memos, access, admission))
    const endpoint = (path: "/mcp" | "/mcp/docs", factory: McpServerFactory) =>
      router.add(
        "*",
        path,
        mcpEndpoint(
          makeMcpHandler(factory, onError),
          anyone,
          access,
          admission,
          fast ? memos.get(path) : undefined
        )
      )
    yield* endpoint("/mcp", (_, client) => catalogServer(undefined, client))
    yield* endpoint("/mcp/docs", (_, client) => docsServer(undefined, client))
  })
)
