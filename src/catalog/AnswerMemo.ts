// The agents' lookups (MCP `tools/call`, RPC `GetEpisode` and the like) answered again from memory.
// Such an answer depends only on the snapshot, which a running server never swaps, and on the
// request's bytes and headers; of those, only the request's id shows in the answer. A profile of the
// pipeline (`npm run bench -- catalog-agents`) put the cost of a lookup in what surrounds it (a fresh
// MCP server and transport per POST, the Effect runtime, RpcServer's Schema encoding), 30–50 times
// a REST hot-path read for the same bytes. So the first answer the pipeline writes for a request is
// kept with its id cut out, and a node fast path answers the same request again with the new id
// spliced in. One source of truth: a kept answer is the pipeline's own bytes, never a second
// rendering; it is kept only when re-serialising it with the same id gives those bytes back exactly,
// and only for what the protocol says is a success (a refusal or failure is never replayed).

import { randomUUID } from "node:crypto"
import type * as Http from "node:http"
import { type LruCache, makeSizedLruCache } from "./LruCache.js"

/** A JSON answer as the pipeline wrote it. */
export interface Answer {
  readonly status: number
  /** The headers of the answer itself (no CORS, no date): what the pipeline built for this request. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** A request id: what JSON-RPC allows and what our protocols echo back unchanged. */
export type RequestId = string | number

/** What one protocol says about its requests and answers. */
export interface AnswerProtocol {
  /**
   * The request's id and the request without it, when the request is a lookup whose answer depends
   * only on the snapshot and may be answered from memory; undefined for anything else.
   */
  readonly split: (body: unknown) => { readonly id: RequestId; readonly rest: unknown } | undefined
  /** Whether `answer` (parsed) is a success answering the request of `id`: the only kind kept. */
  readonly keeps: (answer: unknown, id: RequestId) => boolean
  /** A copy of `answer` whose id is `placeholder`, every other field and its order unchanged. */
  readonly withId: (answer: unknown, placeholder: string) => unknown
}

/** A memoizable request: where its answer is kept, and the id its answer must carry. */
export interface MemoKey {
  readonly key: string
  readonly id: RequestId
}

export interface AnswerMemo {
  /** The key of a request (its headers and parsed body), or undefined when it is not memoizable. */
  readonly keyOf: (headers: Http.IncomingHttpHeaders, body: unknown) => MemoKey | undefined
  /** The answer kept for the request, with the request's own id. */
  readonly recall: (request: MemoKey) => Answer | undefined
  /** Keeps the pipeline's answer to the request, when it is a success that can be replayed exactly. */
  readonly keep: (request: MemoKey, answer: Answer) => void
}

/**
 * Headers that say who sends over which connection, never what is asked: left out of the key, so
 * that they do not split one question into many. Every other header is part of the key, whether or
 * not the pipeline reads it today (Host, Origin, Accept, the MCP revision headers...).
 */
const unaskedHeaders: ReadonlySet<string> = new Set([
  "content-length",
  "connection",
  "keep-alive",
  "user-agent",
  "traceparent",
  "tracestate",
  "x-forwarded-for"
])

/** Keys longer than this are not kept: a lookup is a few hundred bytes, anything longer is not one. */
const maxKeyLength = 4_096

interface Kept {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** The answer's text before and after its id. */
  readonly before: string
  readonly after: string
}

/**
 * What one memo keeps at most, in characters of keys and answers: a transcript's answer can weigh
 * hundreds of kilobytes, so a count of entries alone would not bound the memory.
 */
const maxKeptCharacters = 8_000_000

export const makeAnswerMemo = (
  protocol: AnswerProtocol,
  capacity: number,
  maxCharacters = maxKeptCharacters
): AnswerMemo => {
  const kept: LruCache<Kept> = makeSizedLruCache(
    capacity,
    maxCharacters,
    (entry, key) => key.length + entry.before.length + entry.after.length
  )
  // Unguessable, so that no answer can contain it by chance (and a kept answer is checked anyway).
  const placeholder = `\u0000id ${randomUUID()}`
  const placeholderJson = JSON.stringify(placeholder)
  return {
    keyOf: (headers, body) => {
      const request = protocol.split(body)
      if (request === undefined) return undefined
      let key = ""
      for (const name in headers) {
        if (unaskedHeaders.has(name)) continue
        const value = headers[name]
        // Node refuses line breaks in header values, so a line per header cannot be forged.
        key += `${name}: ${typeof value === "string" ? value : JSON.stringify(value)}\n`
      }
      key += JSON.stringify(request.rest)
      return key.length > maxKeyLength ? undefined : { key, id: request.id }
    },
    recall: ({ key, id }) => {
      const hit = kept.get(key)
      if (hit === undefined) return undefined
      return { status: hit.status, headers: hit.headers, body: hit.before + JSON.stringify(id) + hit.after }
    },
    keep: ({ key, id }, answer) => {
      let parsed: unknown
      try {
        parsed = JSON.parse(answer.body)
      } catch {
        return
      }
      if (!protocol.keeps(parsed, id)) return
      const parts = JSON.stringify(protocol.withId(parsed, placeholder)).split(placeholderJson)
      const [before, after] = parts
      // Replayed with this very id, the kept answer must be the pipeline's bytes, or it is not kept.
      if (parts.length !== 2 || before === undefined || after === undefined) return
      if (before + JSON.stringify(id) + after !== answer.body) return
      kept.set(key, { status: answer.status, headers: answer.headers, before, after })
    }
  }
}

/** Writes an answer (recalled) on a plain node response, with `extraHeaders` (CORS) added. */
export const writeRecalled = (
  answer: Answer,
  response: Http.ServerResponse,
  extraHeaders: Readonly<Record<string, string>> = {}
): void => {
  const body = Buffer.from(answer.body)
  response.writeHead(answer.status, {
    ...answer.headers,
    ...extraHeaders,
    "content-length": String(body.byteLength)
  })
  response.end(body)
}

/** A JSON object (not an array, not null). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The body of a request parsed as JSON, or undefined when it is not JSON. */
export const parseJson = (body: Buffer): { readonly value: unknown } | undefined => {
  try {
    return { value: JSON.parse(body.toString()) }
  } catch {
    return undefined
  }
}
