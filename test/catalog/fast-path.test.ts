// The node fast path and the Effect handlers are one implementation of the contract: for every
// hot read, with and without the fast path, the status, bytes and caching headers are identical.
import * as Http from "node:http"
import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import fc from "fast-check"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { catalogServerOn, catalogTestServer, FixtureSnapshot } from "../support/CatalogTestServer.js"

interface Raw {
  readonly status: number
  readonly headers: Http.IncomingHttpHeaders
  readonly body: Buffer
}

/**
 * Sends one request and collects its answer; `pieces` is a body written in pieces (with no
 * declared length node frames it as chunked).
 */
const exchange = (
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  pieces: ReadonlyArray<string> = []
) =>
  Effect.promise(
    () =>
      new Promise<Raw>((resolve, reject) => {
        const request = Http.request({ host: "127.0.0.1", port, method, path, headers }, (response) => {
          const chunks: Array<Buffer> = []
          response.on("data", (chunk: Buffer) => chunks.push(chunk))
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks)
            })
          )
        })
        request.on("error", reject)
        for (const piece of pieces) request.write(piece)
        request.end()
      })
  )

const send = (port: number, method: string, path: string, headers: Record<string, string>) =>
  exchange(port, method, path, headers)

/** A JSON POST, its length declared or not (then chunked). */
const post = (port: number, path: string, pieces: ReadonlyArray<string>, declareLength: boolean) => {
  const length = pieces.reduce((total, piece) => total + Buffer.byteLength(piece), 0)
  const headers = {
    "content-type": "application/json",
    ...(declareLength ? { "content-length": String(length) } : {})
  }
  return exchange(port, "POST", path, headers, pieces)
}

const compared = [
  "etag",
  "cache-control",
  "vary",
  "content-encoding",
  "content-type",
  "content-length",
  "retry-after"
] as const

/** Sends one request to both servers and expects the same status, bytes and caching headers. */
const same = (
  fastPort: number,
  routedPort: number,
  method: string,
  path: string,
  headers: Record<string, string>
) =>
  Effect.gen(function* () {
    const a = yield* send(fastPort, method, path, headers)
    const b = yield* send(routedPort, method, path, headers)
    const label = `${method} ${path} ${JSON.stringify(headers)}`
    expect(a.status, label).toBe(b.status)
    expect(a.body.toString(), label).toBe(b.body.toString())
    for (const name of compared) expect(a.headers[name], `${label} ${name}`).toBe(b.headers[name])
  })

/** The test server (fast path on) and a second server on the same snapshot with it off. */
const bothPaths = Effect.gen(function* () {
  const snapshot = yield* FixtureSnapshot
  const fast = yield* ServerAddress
  const routed = Context.get(
    yield* Layer.build(catalogServerOn(snapshot.directory, { CATALOG_FAST_PATH: "false" })),
    ServerAddress
  )
  return { snapshot, fast, routed }
})

describe("the fast path", () => {
  it.layer(catalogTestServer())((it) => {
    it.scoped("answers hot reads exactly as the Effect handlers do", () =>
      Effect.gen(function* () {
        const { snapshot, fast, routed } = yield* bothPaths
        const detail = yield* send(fast.port, "GET", "/v1/episodes/4", {})
        const file = snapshot.manifest.index[0] as string
        const cases: Array<[string, string, Record<string, string>]> = [
          ["GET", "/v1/episodes/4", {}],
          ["GET", "/v1/episodes/4", { "accept-encoding": "gzip" }],
          ["GET", "/v1/episodes/4", { "accept-encoding": "br, gzip" }],
          ["GET", "/v1/episodes/4", { "if-none-match": detail.headers.etag as string }],
          ["GET", "/v1/episodes/4", { "if-none-match": `W/${detail.headers.etag}, "other"` }],
          ["GET", "/v1/episodes/4", { "accept-encoding": "identity;q=0" }],
          ["HEAD", "/v1/episodes/4", { "accept-encoding": "gzip" }],
          ["GET", "/v1/episodes/-1?ignored=1", {}],
          ["GET", "/v1/episodes/404", {}],
          ["GET", "/v1/transcripts/3", { "accept-encoding": "br" }],
          ["GET", "/v1/transcripts/-1", {}],
          ["GET", "/v1/snapshot", { "accept-encoding": "gzip" }],
          ["GET", `/snapshot/${file}`, {}],
          ["GET", `/snapshot/${file}.br`, {}],
          ["GET", "/snapshot/missing.json", {}],
          ["GET", "/health", {}],
          ["GET", "/openapi.json", { "accept-encoding": "gzip" }],
          ["GET", "/v1/episodes", {}],
          ["GET", "/v1/episodes", { "accept-encoding": "br" }],
          ["GET", "/v1/episodes?limit=2&session=1", {}],
          ["GET", "/v1/episodes?q=fog+horn&limit=1", {}],
          ["GET", "/v1/episodes?limit=abc", {}],
          ["GET", "/v1/episodes?limit=0", {}],
          ["GET", "/v1/episodes?limit=1&limit=2", {}],
          ["GET", "/v1/episodes?cursor=garbage", {}],
          ["GET", "/v1/episodes?q=%ZZ", {}],
          ["GET", "/v1/episodes;x?q=fog", {}],
          ["GET", "/v1/episodes#x?q=fog", {}],
          ["GET", "/v1/transcripts/search?q=diaphone%20horn", {}],
          ["GET", "/v1/transcripts/search?q=horn&limit=1", { "accept-encoding": "gzip" }],
          ["HEAD", "/v1/transcripts/search?q=horn", {}],
          ["GET", "/v1/transcripts/search", {}],
          ["GET", "/v1/transcripts/search?q=", {}],
          ["GET", "/v1/transcripts/search?q=horn&session=0", {}]
        ]
        for (const [method, path, headers] of cases)
          yield* same(fast.port, routed.port, method, path, headers)
        // Revalidating a computed answer, and following its cursor.
        const page = yield* send(fast.port, "GET", "/v1/episodes?limit=1", {})
        const etag = page.headers.etag as string
        yield* same(fast.port, routed.port, "GET", "/v1/episodes?limit=1", { "if-none-match": etag })
        const cursor = (JSON.parse(page.body.toString()) as { nextCursor: string | null }).nextCursor
        expect(cursor).not.toBeNull()
        yield* same(
          fast.port,
          routed.port,
          "GET",
          `/v1/episodes?limit=1&cursor=${encodeURIComponent(cursor ?? "")}`,
          {}
        )
      })
    )

    it.scoped("refuses a batch body over 64 KiB with 413 on both paths, declared or chunked", () =>
      Effect.gen(function* () {
        const { fast, routed } = yield* bothPaths
        const item = (i: number) => `{"id":"r${i}","path":"/v1/episodes/${"4".padStart(1000, "0")}"},`
        // 70 items of about 1 KiB: over the batch's 64 KiB, far under the server's 1 MiB.
        const oversized = [
          '{"requests":[',
          ...Array.from({ length: 70 }, (_, i) => item(i)),
          '{"id":"last","path":"/v1/episodes/4"}]}'
        ]
        const fitting = [
          '{"requests":[',
          ...Array.from({ length: 19 }, (_, i) => item(i)),
          '{"id":"last","path":"/v1/episodes/4"}]}'
        ]
        for (const port of [fast.port, routed.port]) {
          for (const declareLength of [true, false]) {
            const label = `port ${port}, length ${declareLength ? "declared" : "not declared"}`
            const refused = yield* post(port, "/v1/batch", oversized, declareLength)
            expect(refused.status, label).toBe(413)
            expect(JSON.parse(refused.body.toString()), label).toEqual({
              defined: true,
              code: "PAYLOAD_TOO_LARGE",
              status: 413,
              message: "The request body is larger than 65536 bytes.",
              data: { maxBytes: 65536 }
            })
            const accepted = yield* post(port, "/v1/batch", fitting, declareLength)
            expect(accepted.status, label).toBe(200)
            const { responses } = JSON.parse(accepted.body.toString()) as {
              responses: Array<{ id: string; status: number }>
            }
            expect(responses.length, label).toBe(20)
            expect(responses.at(-1), label).toMatchObject({ id: "last", status: 200 })
          }
        }
      })
    )

    it.scoped("answers any query string of list and search as the Effect handlers do", () =>
      Effect.gen(function* () {
        const { fast, routed } = yield* bothPaths
        const piece = fc.constantFrom(
          "fog",
          "horn",
          "1",
          "2",
          "0",
          "-1",
          "101",
          "abc",
          "",
          "%20",
          "%ZZ",
          "%",
          "+",
          "ü",
          "%C3%BC",
          "a=b",
          "eyJ4IjoxfQ"
        )
        const pair = fc.tuple(
          fc.constantFrom("q", "limit", "session", "cursor", "other", "Q", ""),
          fc.array(piece, { maxLength: 3 }).map((parts) => parts.join(""))
        )
        const url = fc.tuple(
          fc.constantFrom("/v1/episodes", "/v1/transcripts/search"),
          fc.array(pair, { maxLength: 4 })
        )
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(url, async ([path, pairs]) => {
              const query = pairs.map(([key, value]) => `${key}=${value}`).join("&")
              await Effect.runPromise(same(fast.port, routed.port, "GET", `${path}?${query}`, {}))
            }),
            { numRuns: 150 }
          )
        )
      })
    )
  })
})
