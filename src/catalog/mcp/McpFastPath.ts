// The public MCP servers' lookups answered again from memory (AnswerMemo.ts): a `tools/call`,
// `tools/list`, `resources/list` or `resources/read` of `/mcp` or `/mcp/docs` depends only on the
// snapshot and on the request (its bytes, its headers: the revision, the client's declared
// capabilities in the 2026-07-28 envelope, the MCP Apps extension), so the SDK's first answer to a
// request is kept and a node fast path answers the same request again, after the rules the endpoint
// applies before the SDK (Host and Origin, the rate limit) and with the same CORS headers. Whatever
// the fast path does not recall (a first request, another method, a refusal) goes to the endpoint.
import { receivedBody } from "../../http/BodyPolicy.js"
import type { FastHandler } from "../../http/ServerRegistries.js"
import {
  type AnswerMemo,
  type AnswerProtocol,
  isRecord,
  makeAnswerMemo,
  parseJson,
  writeRecalled
} from "../AnswerMemo.js"
import type { CatalogAdmissionService } from "../CatalogAdmission.js"
import { maxMcpBodyBytes } from "../CatalogLimits.js"
import type { McpAccess } from "./McpAccess.js"

/** The methods whose answers a public server gives every client alike for the same request. */
const lookups: ReadonlySet<string> = new Set(["tools/call", "tools/list", "resources/list", "resources/read"])

/** JSON-RPC's requests and answers: the id is the request's and the answer's `id`. */
export const mcpAnswerProtocol: AnswerProtocol = {
  split: (body) => {
    if (!isRecord(body) || body.jsonrpc !== "2.0") return undefined
    const { id, ...rest } = body
    // The SDK takes string and integer ids; anything else it refuses, so it is never recalled.
    if (typeof id !== "string" && !(typeof id === "number" && Number.isSafeInteger(id))) return undefined
    return typeof rest.method === "string" && lookups.has(rest.method) ? { id, rest } : undefined
  },
  keeps: (answer, id) => isRecord(answer) && answer.id === id && "result" in answer && !("error" in answer),
  withId: (answer, placeholder) => ({ ...(answer as Record<string, unknown>), id: placeholder })
}

/** How many distinct lookups of one endpoint are kept (the least recently used go first). */
const memoCapacity = 2_000

export const makeMcpMemo = (): AnswerMemo => makeAnswerMemo(mcpAnswerProtocol, memoCapacity)

/**
 * The fast path of the public MCP endpoints, each path with the memo its endpoint keeps answers in.
 * A request it does not answer is left to the endpoint, which answers it (and any refusal) itself.
 */
export const makeMcpFastPath = (
  memos: ReadonlyMap<string, AnswerMemo>,
  access: McpAccess,
  admission: CatalogAdmissionService
): FastHandler => {
  return (request, response) => {
    if (request.method !== "POST") return false
    const path = request.url ?? "/"
    const memo = memos.get(path)
    if (memo === undefined) return false
    const headers = request.headers
    if (access.refusal({ host: headers.host, origin: headers.origin }) !== undefined) return false
    const body = receivedBody(request)
    if (body === undefined || body.byteLength > maxMcpBodyBytes) return false
    const parsed = parseJson(body)
    if (parsed === undefined) return false
    const key = memo.keyOf(headers, parsed.value)
    if (key === undefined) return false
    const answer = memo.recall(key)
    if (answer === undefined) return false
    // Without budget left, the endpoint answers (and counts) the refusal.
    if (!admission.admitsNode(request)) return false
    writeRecalled(answer, response, access.corsHeaders(headers.origin))
    return path
  }
}
