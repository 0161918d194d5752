// The RPC lookups answered again from memory (AnswerMemo.ts): a POST /rpc of one request message
// for an episode, a transcript or a search depends only on the snapshot and on the message (and the
// request's headers), so RpcServer's first successful answer is kept and a node fast path answers
// the same message again with its id, after the catalog's rate limit. Anything else (several
// messages, `Ask`, a failure, a refusal, a first request) goes to RpcServer.
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { receivedBody } from "../../http/BodyPolicy.js"
import type { FastHandler } from "../../http/ServerRegistries.js"
import {
  type Answer,
  type AnswerMemo,
  type AnswerProtocol,
  isRecord,
  makeAnswerMemo,
  parseJson,
  writeRecalled
} from "../AnswerMemo.js"
import type { CatalogAdmissionService } from "../CatalogAdmission.js"

/** The procedures whose results depend on the snapshot and their payload alone. */
const lookups: ReadonlySet<string> = new Set([
  "GetEpisode",
  "SearchEpisodes",
  "GetTranscript",
  "SearchTranscripts"
])

/**
 * Ids RpcServer echoes unchanged: it reads an id as a bigint and answers with its decimal text, so
 * only canonical decimal text (no sign, no leading zero) comes back as it was sent.
 */
const echoedId = /^(?:0|[1-9][0-9]{0,17})$/

/** Effect RPC's JSON messages: a `Request` carries `id`, its answer is `[Exit]` with `requestId`. */
export const rpcAnswerProtocol: AnswerProtocol = {
  split: (body) => {
    if (!isRecord(body) || body._tag !== "Request") return undefined
    const { id, ...rest } = body
    if (typeof id !== "string" || !echoedId.test(id)) return undefined
    return typeof rest.tag === "string" && lookups.has(rest.tag) ? { id, rest } : undefined
  },
  keeps: (answer, id) => {
    if (!Array.isArray(answer) || answer.length !== 1) return false
    const [exit] = answer as Array<unknown>
    return (
      isRecord(exit) &&
      exit._tag === "Exit" &&
      exit.requestId === id &&
      isRecord(exit.exit) &&
      exit.exit._tag === "Success"
    )
  },
  withId: (answer, placeholder) => [
    { ...(answer as Array<Record<string, unknown>>)[0], requestId: placeholder }
  ]
}

/** How many distinct lookups are kept (the least recently used go first). */
const memoCapacity = 2_000

export const makeRpcMemo = (): AnswerMemo => makeAnswerMemo(rpcAnswerProtocol, memoCapacity)

/** RpcServer's answer as kept: JSON text, its status and headers; undefined for any other body. */
export const answerOfResponse = (response: HttpServerResponse.HttpServerResponse): Answer | undefined => {
  const body = response.body
  if (body._tag !== "Uint8Array") return undefined
  return {
    status: response.status,
    headers: { ...response.headers, "content-type": body.contentType },
    body: new TextDecoder().decode(body.body)
  }
}

/** The fast path of POST `path`, answering from `memo`. */
export const makeRpcFastPath = (
  path: string,
  memo: AnswerMemo,
  admission: CatalogAdmissionService
): FastHandler => {
  return (request, response) => {
    if (request.method !== "POST" || request.url !== path) return false
    const body = receivedBody(request)
    if (body === undefined) return false
    const parsed = parseJson(body)
    if (parsed === undefined) return false
    const key = memo.keyOf(request.headers, parsed.value)
    if (key === undefined) return false
    const answer = memo.recall(key)
    if (answer === undefined) return false
    // Without budget left, RpcServer answers (and counts) the refusal.
    if (!admission.admitsNode(request)) return false
    writeRecalled(answer, response)
    return path
  }
}
