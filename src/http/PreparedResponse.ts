// A response computed once and answered many times: the bytes of each available encoding with
// their strong ETags, plus the headers every answer carries. `answer` applies content negotiation
// and conditional requests (RFC 9110 §8.8.3, §13.1.2) to it; both the Effect handlers and the
// node fast path call it, so the rules exist once.
import { createHash } from "node:crypto"
import * as zlib from "node:zlib"

export type ContentCoding = "br" | "gzip" | "identity"

export interface Variant {
  readonly body: Uint8Array
  /** Strong entity tag of exactly these bytes, quoted. */
  readonly etag: string
}

export interface PreparedResponse {
  readonly contentType: string
  readonly cacheControl: string
  /** Request headers other than Accept-Encoding that chose this response (e.g. Accept). */
  readonly vary?: ReadonlyArray<string>
  readonly variants: Readonly<Partial<Record<ContentCoding, Variant>>> & { readonly identity: Variant }
}

/** A strong ETag from the SHA-256 of the bytes (128 bits are plenty to tell versions apart). */
export const etagOf = (body: Uint8Array | string): string =>
  `"${createHash("sha256").update(body).digest("hex").slice(0, 32)}"`

/** An ETag from a SHA-256 already known (e.g. from the snapshot manifest). */
export const etagFromSha256 = (sha256Hex: string): string => `"${sha256Hex.slice(0, 32)}"`

export const variant = (body: Uint8Array): Variant => ({ body, etag: etagOf(body) })

/** Every coding, smallest first: the preference among equal qualities. */
const codings: ReadonlyArray<ContentCoding> = ["br", "gzip", "identity"]

interface CodingPreference {
  readonly coding: string
  readonly q: number
}

const parseAcceptEncoding = (header: string): Array<CodingPreference> =>
  header
    .split(",")
    .map((part) => {
      const [name = "", ...params] = part.trim().split(";")
      const qParam = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith("q="))
      const q = qParam === undefined ? 1 : Number(qParam.slice(2))
      return { coding: name.trim().toLowerCase(), q: Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0 }
    })
    .filter((preference) => preference.coding !== "")

/**
 * The coding to send, from the client's Accept-Encoding and the codings available; undefined when
 * nothing acceptable is available (identity explicitly refused), which is 406.
 */
export const negotiateCoding = (
  acceptEncoding: string | undefined,
  available: ReadonlySet<ContentCoding>
): ContentCoding | undefined => {
  if (acceptEncoding === undefined || acceptEncoding.trim() === "") return "identity"
  const preferences = parseAcceptEncoding(acceptEncoding)
  const qualityOf = (coding: ContentCoding): number => {
    const exact = preferences.find((p) => p.coding === coding || (coding === "gzip" && p.coding === "x-gzip"))
    if (exact) return exact.q
    const star = preferences.find((p) => p.coding === "*")
    if (star) return star.q
    // Identity is acceptable unless refused, explicitly or through "*;q=0", but a coding the
    // client names is preferred to it (RFC 9110 §12.5.3 makes identity acceptable, not preferred).
    return coding === "identity" ? 0.001 : 0
  }
  let best: ContentCoding | undefined
  let bestQ = 0
  for (const coding of codings) {
    if (!available.has(coding)) continue
    const q = qualityOf(coding)
    if (q > bestQ) {
      best = coding
      bestQ = q
    }
  }
  return best
}

const opaqueTag = (tag: string): string => (tag.startsWith("W/") ? tag.slice(2) : tag)

/** If-None-Match by weak comparison: `*`, or any listed tag equal to `etag` ignoring `W/`. */
export const noneMatch = (ifNoneMatch: string | undefined, etag: string): boolean => {
  if (ifNoneMatch === undefined) return false
  const header = ifNoneMatch.trim()
  // Revalidating clients almost always send back exactly the tag they were given.
  if (header === etag || header === "*") return true
  const target = opaqueTag(etag)
  for (const match of header.matchAll(/(?:W\/)?"[^"]*"/g)) {
    if (opaqueTag(match[0]) === target) return true
  }
  return false
}

export interface Answer {
  readonly status: 200 | 304 | 406
  /** ETag, Cache-Control, Vary, and Content-Encoding for a 200 (not Content-Type or -Length). */
  readonly headers: Readonly<Record<string, string>>
  /** The same plus Content-Type and Content-Length, for writers that send raw headers (200 only). */
  readonly fullHeaders: Readonly<Record<string, string>>
  /** The variant whose bytes a 200 carries (HEAD included: its length is announced). */
  readonly variant: Variant | undefined
}

export interface RequestFacts {
  readonly acceptEncoding: string | undefined
  readonly ifNoneMatch: string | undefined
}

interface Precomputed {
  readonly available: ReadonlySet<ContentCoding>
  readonly vary: string
  /** Filled per coding on first use: a coding nobody asks for is never built (see prepareJson). */
  readonly answers: Partial<Record<ContentCoding, { readonly ok: Answer; readonly notModified: Answer }>>
}

/** Hot responses are answered many times: their header sets are built once, on first use. */
const precomputed = new WeakMap<PreparedResponse, Precomputed>()

const precompute = (prepared: PreparedResponse): Precomputed => {
  // `in`, not Object.keys: lazily compressed variants are getters on their class's prototype.
  const available = new Set(codings.filter((coding) => coding in prepared.variants))
  const vary = [...(prepared.vary ?? []), ...(available.size > 1 ? ["Accept-Encoding"] : [])].join(", ")
  const result = { available, vary, answers: {} }
  precomputed.set(prepared, result)
  return result
}

const answersFor = (prepared: PreparedResponse, vary: string, coding: ContentCoding) => {
  const chosen = prepared.variants[coding] ?? prepared.variants.identity
  const cacheHeaders: Record<string, string> = { etag: chosen.etag, "cache-control": prepared.cacheControl }
  if (vary !== "") cacheHeaders.vary = vary
  const headers = coding === "identity" ? cacheHeaders : { ...cacheHeaders, "content-encoding": coding }
  const fullHeaders = {
    ...headers,
    "content-type": prepared.contentType,
    "content-length": String(chosen.body.byteLength)
  }
  return {
    ok: { status: 200, headers, fullHeaders, variant: chosen },
    notModified: { status: 304, headers: cacheHeaders, fullHeaders: cacheHeaders, variant: undefined }
  } as const
}

/** The answer to a GET or HEAD for a prepared response. */
export const answer = (prepared: PreparedResponse, request: RequestFacts): Answer => {
  const pre = precomputed.get(prepared) ?? precompute(prepared)
  const coding = negotiateCoding(request.acceptEncoding, pre.available)
  if (coding === undefined) {
    const headers = { vary: "Accept-Encoding" }
    return { status: 406, headers, fullHeaders: headers, variant: undefined }
  }
  pre.answers[coding] ??= answersFor(prepared, pre.vary, coding)
  const chosen = pre.answers[coding]
  return noneMatch(request.ifNoneMatch, chosen.ok.variant?.etag ?? "") ? chosen.notModified : chosen.ok
}

/** Bodies smaller than this are sent as they are: compressing them saves less than it costs. */
const compressFrom = 1024

/**
 * A body's variants, compressed only when a client first asks for that coding: most answers computed
 * at request time are read once, by one client, in one coding. A class, not an object literal with
 * getters: V8 makes such a literal in the old generation, where it kept every uncached answer's bytes
 * (memory outside the heap) until a full collection, one every second or two under distinct searches
 * (bench/HISTORY.md, issue 29). Its getters are on the prototype, so `in` sees the codings.
 */
class CompressedOnDemand {
  #gzip: Variant | undefined
  #br: Variant | undefined
  constructor(readonly identity: Variant) {}

  get gzip(): Variant {
    this.#gzip ??= variant(zlib.gzipSync(this.identity.body, { level: 6 }))
    return this.#gzip
  }

  get br(): Variant {
    this.#br ??= variant(
      zlib.brotliCompressSync(this.identity.body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: this.identity.body.byteLength
        }
      })
    )
    return this.#br
  }
}

/**
 * A prepared JSON response computed at request time (lists, searches): compressed once with fast
 * settings, so that the same answer, cached, can be served and revalidated many times.
 */
export const prepareJson = (json: string | Buffer, cacheControl: string): PreparedResponse => {
  const body = typeof json === "string" ? Buffer.from(json, "utf8") : json
  if (body.byteLength < compressFrom) {
    return { contentType: "application/json", cacheControl, variants: { identity: variant(body) } }
  }
  return { contentType: "application/json", cacheControl, variants: new CompressedOnDemand(variant(body)) }
}
