// The hot reads answered without the Effect runtime: episode and transcript details, snapshot
// files, the manifest, health and the OpenAPI document, with their 304s, and the list and search
// operations. A plain node listener in front of the router writes the same prepared responses the
// HttpApi handlers send, from the same operations and schemas; anything it does not recognise, or
// cannot answer (an unknown slug, a miss), falls through to the router.

import type * as Http from "node:http"
import * as QueryString from "find-my-way-ts/QueryString"
import { nodeClientAddress } from "../../http/ClientAddress.js"
import { writeNodeError } from "../../http/NodeErrorWriter.js"
import type { FastHandler } from "../../http/NodeServer.js"
import { refuseOversizedBody } from "../../http/NodeServer.js"
import { writePrepared } from "../../http/PreparedHttp.js"
import type { PreparedResponse } from "../../http/PreparedResponse.js"
import { type CatalogRateLimitService, rateLimitExceeded } from "../CatalogRateLimit.js"
import { maxBatchBodyBytes } from "./Batch.js"
import type { QueryOperation } from "./CatalogOperations.js"

const decode = (segment: string): string | undefined => {
  if (!segment.includes("%")) return segment
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

/** What the fast path can answer: lookups that miss with undefined, and fixed paths. */
export interface FastPathSources {
  readonly episode: (slug: string) => PreparedResponse | undefined
  readonly transcript: (slug: string) => PreparedResponse | undefined
  readonly file: (path: string) => PreparedResponse | undefined
  /** Paths with one answer each: the manifest, health, the OpenAPI document. */
  readonly fixed: ReadonlyMap<string, PreparedResponse>
  /**
   * Paths whose answer depends on the query string. The router splits a URL at its first "?", ";"
   * or "#" and parses the query with find-my-way's parser; these paths contain none of those
   * characters, so an exact match here means the same split, and the same parser is used.
   */
  readonly queries: ReadonlyMap<string, QueryOperation>
}

export const makeCatalogFastPath = (
  sources: FastPathSources,
  limit: CatalogRateLimitService
): FastHandler => {
  const lookup = (path: string): PreparedResponse | undefined => {
    if (path.startsWith("/v1/episodes/")) {
      const slug = decode(path.slice("/v1/episodes/".length))
      return slug === undefined ? undefined : sources.episode(slug)
    }
    if (path.startsWith("/v1/transcripts/")) {
      const slug = decode(path.slice("/v1/transcripts/".length))
      return slug === undefined ? undefined : sources.transcript(slug)
    }
    if (path.startsWith("/snapshot/")) {
      const file = decode(path.slice("/snapshot/".length))
      return file === undefined ? undefined : sources.file(file)
    }
    return sources.fixed.get(path)
  }

  /** Spends one request of the client's budget, or answers 429 and returns false. */
  const admitted = (request: Http.IncomingMessage, response: Http.ServerResponse): boolean => {
    const decision = limit.take(nodeClientAddress(request, limit.trustProxy))
    if (!decision.allowed) {
      writeNodeError(request, response, rateLimitExceeded(limit.perMinute, decision.retryAfterSeconds))
    }
    return decision.allowed
  }

  return (request, response) => {
    const method = request.method
    if (method === "POST" && request.url === "/v1/batch")
      return refuseOversizedBody(request, response, maxBatchBodyBytes)
    if (method !== "GET" && method !== "HEAD") return false
    const url = request.url ?? "/"
    const q = url.indexOf("?")
    const path = q === -1 ? url : url.slice(0, q)
    const query = sources.queries.get(path)
    if (query === undefined) {
      const prepared = lookup(path)
      if (prepared === undefined) return false
      if (admitted(request, response)) writePrepared(prepared, request, response)
      return true
    }
    if (admitted(request, response)) {
      const answer = query(QueryString.parse(q === -1 ? "" : url.slice(q + 1)))
      if (answer._tag === "Right") writePrepared(answer.right, request, response)
      else writeNodeError(request, response, answer.left)
    }
    return true
  }
}
