// The node fast path and the Effect handlers are one implementation of the contract: for every
// hot read, with and without the fast path, the status, bytes and caching headers are identical.
import * as Http from "node:http"
import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { catalogServerOn, catalogTestServer, FixtureSnapshot } from "../support/CatalogTestServer.js"

interface Raw {
  readonly status: number
  readonly headers: Http.IncomingHttpHeaders
  readonly body: Buffer
}

const send = (port: number, method: string, path: string, headers: Record<string, string>) =>
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
        request.end()
      })
  )

const compared = [
  "etag",
  "cache-control",
  "vary",
  "content-encoding",
  "content-type",
  "content-length",
  "retry-after"
] as const

describe("the fast path", () => {
  it.layer(catalogTestServer())((it) => {
    it.scoped("answers hot reads exactly as the Effect handlers do", () =>
      Effect.gen(function* () {
        const snapshot = yield* FixtureSnapshot
        const fast = yield* ServerAddress
        const routed = Context.get(
          yield* Layer.build(catalogServerOn(snapshot.directory, { CATALOG_FAST_PATH: "false" })),
          ServerAddress
        )
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
          ["GET", "/openapi.json", { "accept-encoding": "gzip" }]
        ]
        for (const [method, path, headers] of cases) {
          const a = yield* send(fast.port, method, path, headers)
          const b = yield* send(routed.port, method, path, headers)
          const label = `${method} ${path} ${JSON.stringify(headers)}`
          expect(a.status, label).toBe(b.status)
          expect(a.body.equals(b.body), label).toBe(true)
          for (const name of compared) expect(a.headers[name], `${label} ${name}`).toBe(b.headers[name])
        }
      })
    )
  })
})
