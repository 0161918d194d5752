// `/mcp` and `/mcp/docs` over Streamable HTTP, stateless: every POST gets a fresh MCP server and a
// web-standard transport answering in JSON (see `exchange` for the bridge). Before the SDK
// sees a request we apply our rules: Host and Origin (403), methods (405: without sessions there is
// no stream to GET and nothing to DELETE), body size (413) and the catalog's rate limit (429, one
// request per JSON-RPC message, so a batch costs what its messages would one by one), all in the
// error envelope.

import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { MethodNotAllowed, PayloadTooLarge } from "../../http/ApiError.js"
import { causeResponse, errorResponse } from "../../http/ErrorResponse.js"
import { makeRouteTable } from "../../http/RouteTable.js"
import { Catalog } from "../Catalog.js"
import { CatalogAdmission, type CatalogAdmissionService } from "../CatalogAdmission.js"
import { CatalogConfig } from "../CatalogConfig.js"
import { maxMcpBodyBytes } from "../CatalogLimits.js"
import { CatalogReads } from "../CatalogReads.js"
import { Search } from "../Search.js"
import { catalogTools } from "./CatalogTools.js"
import { docsResources, docsTools } from "./DocsTools.js"
import { type McpAccess, makeMcpAccess } from "./McpAccess.js"
import { makeToolServerFactory } from "./ToolServer.js"

const allowedMethods = ["POST", "OPTIONS"]
/** The MCP routes answer every method themselves, so failures never need a route table. */
const noRoutes = makeRouteTable([])

/** What a browser from an allowed origin needs to hear before it sends the POST. */
const preflightHeaders = {
  "access-control-allow-methods": "POST",
  "access-control-allow-headers":
    "content-type, accept, authorization, mcp-protocol-version, mcp-session-id, last-event-id",
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
 * One JSON-RPC exchange with a server built for this request alone. The body was read and parsed
 * by the caller (bounded like every body) and is handed to the transport as `parsedBody`, with a
 * bodiless web Request for the headers: letting the transport read a web stream made of the node
 * request cost more than everything else in the exchange (≈ 140 µs of ≈ 260 µs). In JSON mode the
 * SDK's answer is complete when `handleRequest` returns, so it is copied into a platform response
 * as text.
 */
const exchange = (
  build: () => Server,
  request: HttpServerRequest.HttpServerRequest,
  url: string,
  parsedBody: unknown
) =>
  Effect.promise(async () => {
    const server = build()
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
    await server.connect(transport)
    try {
      const answer = await transport.handleRequest(
        new Request(url, { method: "POST", headers: request.headers }),
        {
          parsedBody
        }
      )
      const body = await answer.text()
      const headers = Object.fromEntries(answer.headers)
      return body === ""
        ? HttpServerResponse.empty({ status: answer.status, headers })
        : HttpServerResponse.text(body, {
            status: answer.status,
            headers,
            contentType: answer.headers.get("content-type") ?? "application/json"
          })
    } finally {
      await server.close()
    }
  })

/**
 * Which server answers a request, or the answer refusing it: the public servers always answer; a
 * protected one (`/mcp/agent`) first authenticates the caller and answers 401 when it cannot.
 */
export type ServerForRequest = (
  request: HttpServerRequest.HttpServerRequest
) => Effect.Effect<Either.Either<() => Server, HttpServerResponse.HttpServerResponse>>

/** The public servers: the same for everyone. */
const publicServer =
  (build: () => Server): ServerForRequest =>
  () =>
    Effect.succeed(Either.right(build))

/**
 * An MCP endpoint with the rules above; `serverFor` runs last, after the request passed them, so a
 * protected server never authenticates a request the public ones would refuse.
 */
export const mcpEndpoint = (
  serverFor: ServerForRequest,
  access: McpAccess,
  admission: CatalogAdmissionService
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
    const server = yield* serverFor(request)
    if (Either.isLeft(server)) return withCors(server.left)
    if (parsed === undefined) return withCors(parseError)
    // The SDK answers protocol problems itself (406 without both Accept types, 415, invalid JSON-RPC).
    const url = `http://${headers.host ?? "localhost"}${request.url}`
    return withCors(
      yield* Effect.catchAllCause(exchange(server.right, request, url, parsed.body), (cause) =>
        causeResponse(cause, noRoutes)
      )
    )
  })

/** Both MCP servers on the shared router, built from the catalog's services. */
export const McpRoutes = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const catalog = yield* Catalog
    const search = yield* Search
    const reads = yield* CatalogReads
    const config = yield* CatalogConfig
    const admission = yield* CatalogAdmission
    const access = makeMcpAccess({
      listenHost: config.listenHost,
      publicUrl: config.publicOrigin,
      allowedHosts: config.mcpAllowedHosts,
      allowedOrigins: config.mcpAllowedOrigins
    })
    const catalogServer = makeToolServerFactory({
      name: "podcast-catalog",
      title: "Podcast catalog",
      version: "1.0.0",
      instructions:
        "Read-only tools over a podcast's episodes and transcripts. Find episodes with search_episodes, read one " +
        "with get_episode, find what was said with search_transcripts, read a transcript with get_transcript " +
        "(check transcriptAvailable first). Slugs are episode numbers as text.",
      tools: catalogTools(reads)
    })
    const docsServer = makeToolServerFactory({
      name: "podcast-catalog-docs",
      title: "Podcast catalog documentation",
      version: "1.0.0",
      instructions:
        "The service's documentation: search it with search_docs, read a page with get_doc, or list and read " +
        "the pages as resources.",
      tools: docsTools(catalog, search),
      resources: docsResources(catalog)
    })
    yield* router.add("*", "/mcp", mcpEndpoint(publicServer(catalogServer), access, admission))
    yield* router.add("*", "/mcp/docs", mcpEndpoint(publicServer(docsServer), access, admission))
  })
)
