// One MCP endpoint's protocol handling, every revision from one server factory: the SDK's
// `createMcpHandler` serves 2026-07-28 (per-request `_meta` envelope, `server/discover`, the
// `Mcp-Method`/`Mcp-Name` header checks, `resultType`, caching hints) and refuses what that revision
// refuses, with the codes it gives; requests of the 2025 revisions (the `initialize` handshake, then
// plain requests) are served statelessly by the SDK's Streamable HTTP transport from the same
// factory. That second leg is ours only because the SDK's own fallback answers in server-sent events,
// where we answer plain JSON as before (see docs/decisions/mcp-sdk-v2.md): the routing is the SDK's
// own `isLegacyRequest`, the classification `createMcpHandler` itself runs. A server is built for what
// the request's client declared (AppsExtension.ts): only 2026-07-28 requests say it.
import {
  type AuthInfo,
  createMcpHandler,
  isLegacyRequest,
  type McpRequestContext,
  type McpServer,
  WebStandardStreamableHTTPServerTransport
} from "@modelcontextprotocol/server"
import { type ClientFeatures, featuresOfModernRequest, withoutFeatures } from "./AppsExtension.js"

/**
 * The id of a single JSON-RPC request, when it can be read (the rule the SDK's 2026-07-28 handler
 * applies to its own refusals): a batch, a notification or a body that is not a request has none.
 */
const requestIdOf = (body: unknown): string | number | undefined => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined
  const { method, id } = body as { readonly method?: unknown; readonly id?: unknown }
  return typeof method === "string" && (typeof id === "string" || typeof id === "number") ? id : undefined
}

/**
 * The transport of the 2025 revisions refuses some requests (a protocol version it does not know,
 * an Accept header without both types) with `id: null` even when the request's id was readable;
 * the refusal is answered with that id, as JSON-RPC asks and as the 2026-07-28 handler does.
 */
const withRequestId = async (answer: Response, body: unknown): Promise<Response> => {
  const id = requestIdOf(body)
  if (answer.ok || id === undefined || !answer.headers.get("content-type")?.includes("application/json")) {
    return answer
  }
  const text = await answer.text()
  const parsed: unknown = JSON.parse(text)
  const refusal =
    typeof parsed === "object" && parsed !== null && "error" in parsed && "id" in parsed && parsed.id === null
      ? { ...parsed, id }
      : parsed
  return new Response(JSON.stringify(refusal), { status: answer.status, headers: answer.headers })
}

/**
 * Builds the server for one request of one era, for what its client declared; `authInfo` is the
 * caller's verified grant, if any.
 */
export type McpServerFactory = (context: McpRequestContext, client: ClientFeatures) => McpServer

/**
 * Answers one MCP POST: `request` carries the method, URL and headers (its body is not read),
 * `body` is the request's JSON, already read and parsed by the caller.
 */
export type McpHandler = (request: Request, body: unknown, authInfo?: AuthInfo) => Promise<Response>

/** Failures of the SDK outside a response (a factory or transport that threw) are reported here. */
export type McpErrorReporter = (error: Error) => void

export const makeMcpHandler = (factory: McpServerFactory, onError: McpErrorReporter): McpHandler => {
  /**
   * What the client of each 2026-07-28 request declared, keyed by the Request handed to the SDK, which
   * gives the same object back to the factory as `requestInfo`.
   */
  const declared = new WeakMap<Request, ClientFeatures>()
  // The 2025 revisions are served below, so the SDK's handler refuses anything without the envelope.
  const modern = createMcpHandler(
    (context) =>
      factory(
        context,
        (context.requestInfo === undefined ? undefined : declared.get(context.requestInfo)) ?? withoutFeatures
      ),
    { legacy: "reject", onerror: onError }
  )

  const legacy = async (request: Request, body: unknown, authInfo: AuthInfo | undefined) => {
    const server = factory(
      { era: "legacy", requestInfo: request, ...(authInfo === undefined ? {} : { authInfo }) },
      withoutFeatures
    )
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true
    })
    transport.onerror = onError
    await server.connect(transport)
    try {
      // In JSON mode the answer is complete when handleRequest resolves.
      const answer = await transport.handleRequest(request, {
        parsedBody: body,
        ...(authInfo === undefined ? {} : { authInfo })
      })
      return await withRequestId(answer, body)
    } finally {
      await server.close()
    }
  }

  return async (request, body, authInfo) => {
    if (await isLegacyRequest(request, body)) return legacy(request, body, authInfo)
    declared.set(request, featuresOfModernRequest(body))
    return modern.fetch(request, { parsedBody: body, ...(authInfo === undefined ? {} : { authInfo }) })
  }
}
