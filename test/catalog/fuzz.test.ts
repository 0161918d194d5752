// Property: whatever a client sends (random methods, paths, query strings, headers and bodies), the
// catalog never answers 5xx and every error it answers is in the envelope, with a matching status.
import * as Http from "node:http"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import fc from "fast-check"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { catalogTestServer } from "../support/CatalogTestServer.js"

interface Sent {
  readonly method: string
  readonly path: string
  readonly headers: Record<string, string>
  readonly body: string | undefined
}

const send = (port: number, sent: Sent) =>
  new Promise<{ status: number; headers: Http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    // A body is always framed by its length, as real clients do (unframed bytes would be read as the next request).
    const framed =
      sent.body === undefined
        ? sent.headers
        : { ...sent.headers, "content-length": String(Buffer.byteLength(sent.body)) }
    const request = Http.request(
      { host: "127.0.0.1", port, method: sent.method, path: sent.path, headers: framed },
      (response) => {
        let body = ""
        response.setEncoding("latin1")
        response.on("data", (chunk: string) => {
          body += chunk
        })
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body })
        )
      }
    )
    request.on("error", reject)
    request.end(sent.body)
  })

const segment = fc.oneof(
  fc.constantFrom(
    "v1",
    "episodes",
    "transcripts",
    "search",
    "snapshot",
    "batch",
    "sandbox",
    "health",
    "openapi.json",
    "docs",
    "4",
    "-1",
    "..",
    ".",
    "%2e%2e",
    "%E0%A4%A",
    "%00",
    "ü",
    "*"
  ),
  fc.stringMatching(/^[A-Za-z0-9._~%-]{0,12}$/),
  fc.integer({ min: -5, max: 500 }).map(String)
)
const knownPrefix = fc.constantFrom(
  "",
  "/v1/episodes",
  "/v1/transcripts",
  "/v1/transcripts/search",
  "/snapshot",
  "/v1",
  "/v1/batch"
)
const path = fc
  .tuple(knownPrefix, fc.array(segment, { maxLength: 3 }))
  .map(([prefix, segments]) => `${prefix}/${segments.join("/")}`.replace(/\/+$/, "") || "/")

const queryValue = fc.oneof(
  fc.constantFrom(
    "",
    "0",
    "1",
    "10",
    "50",
    "51",
    "-1",
    "1.5",
    "1e3",
    "abc",
    "lighthouse",
    "fog signals",
    "a",
    "%ZZ"
  ),
  fc.string({ maxLength: 20 })
)
const query = fc
  .array(fc.tuple(fc.constantFrom("q", "limit", "session", "cursor", "x", "q", "limit"), queryValue), {
    maxLength: 4
  })
  .map((pairs) =>
    pairs.length === 0 ? "" : `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&")}`
  )

const headers = fc.record(
  {
    "accept-encoding": fc.constantFrom(
      "gzip",
      "br",
      "identity;q=0",
      "*;q=0",
      "gzip;q=0.5, br;q=0",
      "x-unknown",
      ""
    ),
    "if-none-match": fc.constantFrom("*", '"abc"', 'W/"abc"', '"abc", W/"def"', "garbage", ""),
    accept: fc.constantFrom("text/html", "application/json", "text/event-stream", "*/*", "image/png"),
    "content-type": fc.constantFrom(
      "application/json",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data"
    )
  },
  { requiredKeys: [] }
)

const body = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 200 }),
  fc
    .array(
      fc.record({ id: fc.string({ maxLength: 70 }), path: fc.tuple(path, query).map(([p, q]) => p + q) }),
      { maxLength: 25 }
    )
    .map((requests) => JSON.stringify({ requests }))
)

const request = fc.record({
  method: fc.constantFrom("GET", "GET", "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"),
  path: fc.tuple(path, query).map(([p, q]) => p + q),
  headers,
  body
})

describe("random requests", () => {
  it.layer(catalogTestServer({ CATALOG_RATE_LIMIT: "1000000" }))((it) => {
    it.effect("never get a 5xx or an error outside the envelope", () =>
      Effect.gen(function* () {
        const { port } = yield* ServerAddress
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(request, async (sent) => {
              const withBody = sent.body !== undefined && !["GET", "HEAD"].includes(sent.method)
              const response = await send(port, { ...sent, body: withBody ? sent.body : undefined })
              expect(response.status, JSON.stringify(sent)).toBeLessThan(500)
              if (response.status >= 400 && sent.method !== "HEAD") {
                expect(response.headers["content-type"], JSON.stringify(sent)).toContain("application/json")
                const envelope = JSON.parse(response.body)
                expect(envelope, JSON.stringify(sent)).toMatchObject({
                  defined: true,
                  status: response.status
                })
                expect(typeof envelope.code).toBe("string")
                expect(typeof envelope.message).toBe("string")
              }
              if (response.status === 304) expect(response.body).toBe("")
            }),
            { numRuns: 500 }
          )
        )
      })
    )
  })
})
