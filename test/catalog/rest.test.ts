// The catalog's REST contract through the real server: every route, its caching rules, its bounds
// and its errors, in the one envelope.
import { createHash } from "node:crypto"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type { EpisodePage, Health, TranscriptHitPage } from "../../src/catalog/domain/Collections.js"
import type { EpisodeDetail } from "../../src/catalog/domain/Episode.js"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { catalogTestServer, FixtureSnapshot, fixtureOrigin } from "../support/CatalogTestServer.js"
import { request, type TestResponse } from "../support/TestServer.js"

type Page = typeof EpisodePage.Encoded
type Hits = typeof TranscriptHitPage.Encoded

const envelope = (response: TestResponse, status: number, code: string) => {
  expect(response.status).toBe(status)
  expect(response.headers.get("content-type")).toContain("application/json")
  expect(response.json).toMatchObject({ defined: true, status, code })
  expect(typeof (response.json as { message: unknown }).message).toBe("string")
}

/** Raw bytes of an answer (fetch would decompress), via node:http. */
const rawGet = (path: string, headers: Record<string, string> = {}, method = "GET") =>
  Effect.flatMap(ServerAddress, (address) =>
    Effect.promise(
      () =>
        new Promise<{
          status: number
          headers: Record<string, string | Array<string> | undefined>
          body: Buffer
        }>((resolve, reject) => {
          import("node:http").then(({ request: send }) => {
            const req = send({ host: address.host, port: address.port, path, method, headers }, (res) => {
              const chunks: Array<Buffer> = []
              res.on("data", (chunk: Buffer) => chunks.push(chunk))
              res.on("end", () =>
                resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) })
              )
            })
            req.on("error", reject)
            req.end()
          }, reject)
        })
    )
  )

type RawAnswer = Effect.Effect.Success<ReturnType<typeof rawGet>>

/** The gzip and br answers are the identity bytes compressed, each with its own ETag. */
const expectCompressedCopies = (identity: RawAnswer, gzip: RawAnswer, br: RawAnswer) => {
  expect(gzip.headers["content-encoding"]).toBe("gzip")
  expect(gunzipSync(gzip.body).equals(identity.body)).toBe(true)
  expect(br.headers["content-encoding"]).toBe("br")
  expect(brotliDecompressSync(br.body).equals(identity.body)).toBe(true)
  expect(new Set([identity.headers.etag, gzip.headers.etag, br.headers.etag]).size).toBe(3)
}

describe("the catalog REST API", () => {
  it.layer(catalogTestServer())((it) => {
    describe("health", () => {
      it.effect("reports the snapshot it serves", () =>
        Effect.gen(function* () {
          const snapshot = yield* FixtureSnapshot
          const response = yield* request("/health")
          expect(response.status).toBe(200)
          const health = response.json as typeof Health.Encoded
          expect(health).toEqual({
            status: "ok",
            snapshot: {
              id: snapshot.manifest.id,
              builtAt: "2024-04-02T06:00:00.000Z",
              episodes: 6,
              transcripts: 5
            }
          })
          expect(response.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/)
        })
      )
    })

    describe("episode list and search", () => {
      it.effect("lists newest first with the collection shape and caching headers", () =>
        Effect.gen(function* () {
          const response = yield* request("/v1/episodes")
          expect(response.status).toBe(200)
          const page = response.json as Page
          expect(page.data.map((e) => e.slug)).toEqual(["4", "-2", "3", "2", "1", "-1"])
          expect(page.nextCursor).toBeNull()
          expect(page.schemaVersion).toBe("1")
          expect(page.data.every((e) => e.relevance === null && e.matchedFields.length === 0)).toBe(true)
          expect(response.headers.get("cache-control")).toBe("public, max-age=60")
          expect(response.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/)
        })
      )

      it.effect("pages with opaque cursors until nextCursor is null", () =>
        Effect.gen(function* () {
          const seen: Array<string> = []
          let cursor: string | null = null
          let pages = 0
          do {
            const path: string = `/v1/episodes?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`
            const page = (yield* request(path)).json as Page
            seen.push(...page.data.map((e) => e.slug))
            cursor = page.nextCursor
            pages++
          } while (cursor !== null && pages < 5)
          expect(pages).toBe(2)
          expect(seen).toEqual(["4", "-2", "3", "2", "1", "-1"])
        })
      )

      it.effect("ranks by relevance with q and names the fields that matched", () =>
        Effect.gen(function* () {
          const page = (yield* request("/v1/episodes?q=fog%20signals")).json as Page
          expect(page.data[0]?.slug).toBe("4")
          expect(page.data[0]?.matchedFields).toEqual(
            expect.arrayContaining(["title", "subtitle", "description"])
          )
          const relevances = page.data.map((e) => e.relevance as number)
          expect(relevances.every((r) => typeof r === "number" && r > 0)).toBe(true)
          expect([...relevances].sort((a, b) => b - a)).toEqual(relevances)
        })
      )

      it.effect("finds episodes by a person's name and by the start of a word", () =>
        Effect.gen(function* () {
          const byPerson = (yield* request("/v1/episodes?q=ada%20marsh")).json as Page
          expect(byPerson.data).toHaveLength(6)
          expect(byPerson.data[0]?.matchedFields).toContain("people")
          const byPrefix = (yield* request("/v1/episodes?q=breakwat")).json as Page
          expect(byPrefix.data.map((e) => e.slug)).toEqual(["-2"])
        })
      )

      it.effect("filters by session, with and without q", () =>
        Effect.gen(function* () {
          const listed = (yield* request("/v1/episodes?session=1")).json as Page
          expect(listed.data.map((e) => e.slug)).toEqual(["2", "1", "-1"])
          const searched = (yield* request("/v1/episodes?q=ada&session=2")).json as Page
          expect(searched.data.map((e) => e.slug).sort()).toEqual(["-2", "3", "4"])
        })
      )

      it.effect("answers an empty page for a query nothing matches", () =>
        Effect.gen(function* () {
          const page = (yield* request("/v1/episodes?q=zeppelin")).json as Page
          expect(page).toEqual({ data: [], nextCursor: null, schemaVersion: "1" })
        })
      )

      it.effect.each([
        ["limit=0", "limit"],
        ["limit=51", "limit"],
        ["limit=1.5", "limit"],
        ["limit=ten", "limit"],
        ["limit=1&limit=2", "limit"],
        ["session=first", "session"],
        ["session=0", "session"],
        ["sort=title", "sort"],
        ["q=!!", "q"],
        ["q=a", "q"],
        [`q=${"x".repeat(501)}`, "q"]
      ])("rejects %s with 400 naming %s", ([query, parameter]) =>
        Effect.gen(function* () {
          const response = yield* request(`/v1/episodes?${query}`)
          envelope(response, 400, "BAD_REQUEST")
          expect((response.json as { message: string }).message).toContain(parameter)
        })
      )

      it.effect("refuses a cursor from another query, a forged one and a garbled one", () =>
        Effect.gen(function* () {
          const first = (yield* request("/v1/episodes?limit=2")).json as Page
          const cursor = encodeURIComponent(first.nextCursor ?? "")
          const other = yield* request(`/v1/episodes?limit=2&session=1&cursor=${cursor}`)
          envelope(other, 400, "BAD_REQUEST")
          expect((other.json as { message: string }).message).toContain("another query")
          const [payload = ""] = (first.nextCursor ?? "").split(".")
          const forgedPayload = Buffer.from(
            JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), o: 1 })
          ).toString("base64url")
          const forged = yield* request(
            `/v1/episodes?limit=2&cursor=${forgedPayload}.${(first.nextCursor ?? "").split(".")[1]}`
          )
          envelope(forged, 400, "BAD_REQUEST")
          envelope(yield* request("/v1/episodes?cursor=not-a-cursor"), 400, "BAD_REQUEST")
        })
      )
    })

    describe("computed answers", () => {
      it.effect("are compressed for the clients that ask, each coding with its own ETag and 304", () =>
        Effect.gen(function* () {
          const identity = yield* rawGet("/v1/episodes")
          // Large enough to be offered compressed at all.
          expect(identity.body.byteLength).toBeGreaterThan(1024)
          expect(identity.headers["content-encoding"]).toBeUndefined()
          const br = yield* rawGet("/v1/episodes", { "accept-encoding": "br" })
          const gzip = yield* rawGet("/v1/episodes", { "accept-encoding": "gzip" })
          expectCompressedCopies(identity, gzip, br)
          const revalidated = yield* rawGet("/v1/episodes", {
            "accept-encoding": "br",
            "if-none-match": String(br.headers.etag)
          })
          expect(revalidated.status).toBe(304)
        })
      )
    })

    describe("episode detail", () => {
      it.effect(
        "answers the snapshot's record with its links on the origin, a strong ETag and the detail Cache-Control",
        () =>
          Effect.gen(function* () {
            const snapshot = yield* FixtureSnapshot
            const response = yield* rawGet("/v1/episodes/4")
            const path = snapshot.manifest.episodes["4"] as string
            expect(response.status).toBe(200)
            const stored = JSON.parse(snapshot.file(path).toString("utf8")) as typeof EpisodeDetail.Encoded
            expect(stored.data.links.api).toBe("v1/episodes/4")
            expect(JSON.parse(response.body.toString("utf8"))).toEqual({
              ...stored,
              data: {
                ...stored.data,
                links: {
                  ...stored.data.links,
                  api: `${fixtureOrigin}/v1/episodes/4`,
                  transcript: `${fixtureOrigin}/v1/transcripts/4`
                }
              }
            })
            // Only the links differ from the file: the rest is its bytes.
            expect(response.body.byteLength).toBe(
              snapshot.file(path).byteLength + 2 * (fixtureOrigin.length + 1)
            )
            expect(response.headers.etag).toBe(
              `"${createHash("sha256").update(response.body).digest("hex").slice(0, 32)}"`
            )
            expect(response.headers["cache-control"]).toBe(
              "public, max-age=300, stale-while-revalidate=86400"
            )
            expect(response.headers.vary).toBe("Accept-Encoding")
            const detail = JSON.parse(response.body.toString()) as typeof EpisodeDetail.Encoded
            expect(detail.schemaVersion).toBe("1")
            expect(detail.data.slug).toBe("4")
          })
      )

      it.effect("sends the precompressed copies with their own ETags", () =>
        Effect.gen(function* () {
          const identity = yield* rawGet("/v1/episodes/4")
          const gzip = yield* rawGet("/v1/episodes/4", { "accept-encoding": "gzip" })
          const br = yield* rawGet("/v1/episodes/4", { "accept-encoding": "gzip, deflate, br" })
          expectCompressedCopies(identity, gzip, br)
          const noBr = yield* rawGet("/v1/episodes/4", { "accept-encoding": "br;q=0, gzip;q=0.5" })
          expect(noBr.headers["content-encoding"]).toBe("gzip")
        })
      )

      it.effect("answers 406 when every coding it has is refused", () =>
        Effect.gen(function* () {
          const response = yield* request("/v1/episodes/4", {
            headers: { "accept-encoding": "identity;q=0" }
          })
          envelope(response, 406, "NOT_ACCEPTABLE")
        })
      )

      it.effect("revalidates with If-None-Match: exact, weak, in a list and *", () =>
        Effect.gen(function* () {
          const first = yield* rawGet("/v1/episodes/3")
          const etag = first.headers.etag as string
          for (const header of [etag, `W/${etag}`, `"nope", ${etag}`, "*"]) {
            const again = yield* rawGet("/v1/episodes/3", { "if-none-match": header })
            expect(again.status, header).toBe(304)
            expect(again.body.byteLength).toBe(0)
            expect(again.headers.etag).toBe(etag)
            expect(again.headers["cache-control"]).toBe(first.headers["cache-control"])
          }
          expect((yield* rawGet("/v1/episodes/3", { "if-none-match": '"stale"' })).status).toBe(200)
          // The identity tag does not validate the gzip representation.
          expect(
            (yield* rawGet("/v1/episodes/3", { "if-none-match": etag, "accept-encoding": "gzip" })).status
          ).toBe(200)
        })
      )

      it.effect("answers HEAD like GET without a body", () =>
        Effect.gen(function* () {
          const get = yield* rawGet("/v1/episodes/3")
          const head = yield* rawGet("/v1/episodes/3", {}, "HEAD")
          expect(head.status).toBe(200)
          expect(head.body.byteLength).toBe(0)
          expect(head.headers["content-length"]).toBe(String(get.body.byteLength))
          expect(head.headers.etag).toBe(get.headers.etag)
        })
      )

      it.effect(
        "a slug that does not exist is 404 and a slug that cannot exist is 400, in the envelope",
        () =>
          Effect.gen(function* () {
            envelope(yield* request("/v1/episodes/999"), 404, "NOT_FOUND")
            envelope(yield* request("/v1/episodes/abc"), 400, "BAD_REQUEST")
            envelope(yield* request("/v1/episodes/%E0%A4%A"), 400, "BAD_REQUEST")
          })
      )
    })

    describe("transcripts", () => {
      it.effect("answers the complete transcript and 404 where there is none", () =>
        Effect.gen(function* () {
          const snapshot = yield* FixtureSnapshot
          const response = yield* rawGet("/v1/transcripts/2")
          const stored = snapshot.file(snapshot.manifest.transcripts["2"] as string).toString("utf8")
          expect(stored).toContain('"api":"v1/episodes/2"')
          expect(response.body.toString("utf8")).toBe(stored.replaceAll('":"v1/', `":"${fixtureOrigin}/v1/`))
          const missing = yield* request("/v1/transcripts/-1")
          envelope(missing, 404, "NOT_FOUND")
          expect((missing.json as { message: string }).message).toContain("no local transcript")
          envelope(yield* request("/v1/transcripts/77"), 404, "NOT_FOUND")
        })
      )

      it.effect("finds paragraphs with snippet, highlights, relevance and a deep link into the audio", () =>
        Effect.gen(function* () {
          const response = yield* request("/v1/transcripts/search?q=diaphone%20horn")
          expect(response.status).toBe(200)
          const hits = response.json as Hits
          expect(hits.data).toHaveLength(1)
          const [hit] = hits.data
          expect(hit).toMatchObject({
            slug: "4",
            title: "Fog Signals and the Sound of Safety",
            session: 2,
            episodeNumber: 4,
            paragraphIndex: 1,
            speaker: "Tom Reyes",
            startSeconds: 130,
            links: {
              episode: "https://catalog.example/v1/episodes/4",
              transcript: "https://catalog.example/v1/transcripts/4",
              audioAt: "https://cdn.fixture.example/0.mp3#t=130"
            }
          })
          const words = (hit?.highlights ?? []).map(([start, end]) =>
            hit?.snippet.slice(start, end).toLowerCase()
          )
          expect(words).toEqual(["diaphone", "horn"])
          expect(hit?.relevance).toBeGreaterThan(0)
        })
      )

      it.effect("links a paragraph without its own time to the audio without a media fragment", () =>
        Effect.gen(function* () {
          const hits = (yield* request("/v1/transcripts/search?q=thirty%20seconds%20fog")).json as Hits
          expect(hits.data[0]).toMatchObject({ paragraphIndex: 2, startSeconds: null })
          // No time of its own: the audio itself, not the previous paragraph's moment (130 s).
          expect(hits.data[0]?.links.audioAt).toBe("https://cdn.fixture.example/0.mp3")
        })
      )

      it.effect("filters hits by session and pages them", () =>
        Effect.gen(function* () {
          const all = (yield* request("/v1/transcripts/search?q=the&limit=50")).json as Hits
          const sessionOne = (yield* request("/v1/transcripts/search?q=the&session=1&limit=50")).json as Hits
          expect(sessionOne.data.length).toBeGreaterThan(0)
          expect(sessionOne.data.every((hit) => hit.session === 1)).toBe(true)
          expect(sessionOne.data.length).toBeLessThan(all.data.length)
          const first = (yield* request("/v1/transcripts/search?q=the&limit=2")).json as Hits
          expect(first.nextCursor).not.toBeNull()
          const second = (yield* request(
            `/v1/transcripts/search?q=the&limit=2&cursor=${encodeURIComponent(first.nextCursor ?? "")}`
          )).json as Hits
          expect(second.data.map((h) => [h.slug, h.paragraphIndex])).toEqual(
            all.data.slice(2, 4).map((h) => [h.slug, h.paragraphIndex])
          )
        })
      )

      it.effect.each(["", "?q=", "?q=a", "?q=%20-%20", "?q=lens&limit=0", "?q=lens&extra=1"])(
        "rejects transcripts/search%s with 400",
        (query) =>
          Effect.flatMap(request(`/v1/transcripts/search${query}`), (response) =>
            Effect.sync(() => envelope(response, 400, "BAD_REQUEST"))
          )
      )
    })

    describe("the static snapshot", () => {
      it.effect("answers the manifest and every file, immutable, byte for byte", () =>
        Effect.gen(function* () {
          const snapshot = yield* FixtureSnapshot
          const manifest = yield* rawGet("/v1/snapshot")
          expect(manifest.body.equals(snapshot.file("manifest.json"))).toBe(true)
          expect(manifest.headers["cache-control"]).toBe("public, max-age=60")
          const path = snapshot.manifest.index[0] as string
          const file = yield* rawGet(`/snapshot/${path}`)
          expect(file.status).toBe(200)
          expect(file.body.equals(snapshot.file(path))).toBe(true)
          expect(file.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
          const gz = yield* rawGet(`/snapshot/${path}.gz`)
          expect(gz.headers["content-type"]).toBe("application/gzip")
          expect(gz.body.equals(snapshot.file(`${path}.gz`))).toBe(true)
        })
      )

      it.effect("a path that is not in the manifest is 404", () =>
        Effect.gen(function* () {
          envelope(yield* request("/snapshot/episodes/nope.json"), 404, "NOT_FOUND")
          envelope(yield* request("/snapshot/../package.json"), 404, "NOT_FOUND")
          envelope(yield* request("/snapshot/%2e%2e/%2e%2e/etc/passwd"), 404, "NOT_FOUND")
        })
      )
    })

    describe("batch", () => {
      const batch = (body: unknown) =>
        request("/v1/batch", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body)
        })

      it.effect("answers each request in order, each on its own", () =>
        Effect.gen(function* () {
          const response = yield* batch({
            requests: [
              { id: "detail", path: "/v1/episodes/4" },
              { id: "missing", path: "/v1/episodes/404" },
              { id: "search", path: "/v1/transcripts/search?q=fresnel" },
              { id: "bad", path: "/v1/episodes?limit=0" },
              { id: "outside", path: "/health" },
              { id: "nested", path: "/v1/batch" },
              { id: "unknown", path: "/v1/nothing" }
            ]
          })
          expect(response.status).toBe(200)
          const { responses } = response.json as {
            responses: Array<{ id: string; status: number; etag?: string; body: unknown }>
          }
          expect(responses.map((r) => [r.id, r.status])).toEqual([
            ["detail", 200],
            ["missing", 404],
            ["search", 200],
            ["bad", 400],
            ["outside", 400],
            ["nested", 400],
            ["unknown", 404]
          ])
          const direct = yield* rawGet("/v1/episodes/4")
          expect(responses[0]?.etag).toBe(direct.headers.etag)
          expect(responses[0]?.body).toEqual(JSON.parse(direct.body.toString()))
          expect(responses[1]?.body).toMatchObject({ defined: true, code: "NOT_FOUND", status: 404 })
          expect((responses[2]?.body as Hits | undefined)?.data[0]?.slug).toBe("2")
          expect(responses[3]?.body).toMatchObject({ code: "BAD_REQUEST" })
        })
      )

      it.effect("refuses more than 20 requests with 413 and none with 400", () =>
        Effect.gen(function* () {
          const many = Array.from({ length: 21 }, (_, i) => ({ id: `r${i}`, path: "/v1/episodes/1" }))
          envelope(yield* batch({ requests: many }), 413, "PAYLOAD_TOO_LARGE")
          envelope(yield* batch({ requests: [] }), 400, "BAD_REQUEST")
          envelope(yield* batch({ requests: [{ id: "", path: "/v1/episodes/1" }] }), 400, "BAD_REQUEST")
          envelope(
            yield* batch({ requests: [{ id: "x".repeat(65), path: "/v1/episodes/1" }] }),
            400,
            "BAD_REQUEST"
          )
          envelope(yield* batch({ requests: [], more: 1 }), 400, "BAD_REQUEST")
        })
      )

      it.effect("answers a body over 64 KiB with 413 instead of dropping the connection", () =>
        Effect.gen(function* () {
          const body = { requests: [{ id: "a", path: `/v1/episodes?q=${"x".repeat(70_000)}` }] }
          envelope(yield* batch(body), 413, "PAYLOAD_TOO_LARGE")
          // The connection is still usable afterwards.
          expect((yield* request("/health")).status).toBe(200)
        })
      )

      it.effect("answers malformed JSON with 400", () =>
        Effect.gen(function* () {
          const response = yield* request("/v1/batch", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: "{"
          })
          envelope(response, 400, "BAD_REQUEST")
        })
      )
    })

    describe("sandbox and descriptions", () => {
      it.effect("sandbox answers JSON by default and HTML to browsers", () =>
        Effect.gen(function* () {
          const json = yield* request("/sandbox")
          expect(json.status).toBe(200)
          expect(json.json).toMatchObject({
            service: "Podcast catalog",
            limits: { batchRequests: 20, pageSize: { maximum: 50 } }
          })
          expect((json.json as { routes: Array<{ path: string }> }).routes.map((r) => r.path)).toEqual(
            expect.arrayContaining([
              "/v1/episodes",
              "/v1/episodes/{slug}",
              "/v1/transcripts/search",
              "/v1/batch"
            ])
          )
          const html = yield* request("/sandbox", { headers: { accept: "text/html,application/xhtml+xml" } })
          expect(html.headers.get("content-type")).toContain("text/html")
          expect(html.text).toContain("If-None-Match")
          expect(html.headers.get("vary")).toContain("Accept")
        })
      )

      it.effect(
        "/openapi.json is OpenAPI 3.1 with every route, integer parameters and only our error envelope",
        () =>
          Effect.gen(function* () {
            const response = yield* request("/openapi.json")
            expect(response.status).toBe(200)
            expect(response.headers.get("cache-control")).toBe("public, max-age=3600")
            const spec = response.json as {
              openapi: string
              paths: Record<
                string,
                Record<string, { parameters?: Array<{ name: string; schema: { type?: string } }> }>
              >
              components: { schemas: Record<string, unknown> }
            }
            expect(spec.openapi).toMatch(/^3\.1\./)
            expect(Object.keys(spec.paths)).toEqual(
              expect.arrayContaining([
                "/health",
                "/v1/episodes",
                "/v1/episodes/{slug}",
                "/v1/transcripts/search",
                "/v1/transcripts/{slug}",
                "/v1/snapshot",
                "/snapshot/{path}",
                "/v1/batch",
                "/sandbox"
              ])
            )
            const params = spec.paths["/v1/episodes"]?.get?.parameters ?? []
            expect(params.find((p) => p.name === "limit")?.schema.type).toBe("integer")
            expect(params.find((p) => p.name === "session")?.schema.type).toBe("integer")
            expect(spec.components.schemas.HttpApiDecodeError).toBeUndefined()
            expect(response.text).not.toContain("HttpApiDecodeError")
          })
      )

      it.effect("/docs is the reference page, compressed when the client accepts it", () =>
        Effect.gen(function* () {
          const page = yield* rawGet("/docs", { "accept-encoding": "br" })
          expect(page.status).toBe(200)
          expect(page.headers["content-encoding"]).toBe("br")
          const html = brotliDecompressSync(page.body).toString()
          expect(html).toContain("<!doctype html>")
          expect(html).toContain("Podcast catalog")
          expect(page.body.byteLength).toBeLessThan(html.length / 2)
        })
      )
    })

    describe("routing errors", () => {
      it.effect("an unknown route is 404 and a wrong method 405 with Allow", () =>
        Effect.gen(function* () {
          envelope(yield* request("/v2/episodes"), 404, "NOT_FOUND")
          const wrong = yield* request("/v1/episodes/4", { method: "DELETE" })
          envelope(wrong, 405, "METHOD_NOT_ALLOWED")
          expect(wrong.headers.get("allow")).toBe("GET, HEAD")
          const post = yield* request("/v1/batch", { method: "GET" })
          envelope(post, 405, "METHOD_NOT_ALLOWED")
          expect(post.headers.get("allow")).toBe("POST")
        })
      )

      it.effect("a body that is not JSON is 400 before anything reads it", () =>
        Effect.gen(function* () {
          for (const type of [
            "multipart/form-data; boundary=",
            "text/plain",
            "application/x-www-form-urlencoded"
          ]) {
            const response = yield* request("/v1/batch", {
              method: "POST",
              headers: { "content-type": type },
              body: "a=1"
            })
            envelope(response, 400, "BAD_REQUEST")
            expect((response.json as { message: string }).message).toContain("application/json")
          }
        })
      )

      it.effect("a media type without a body is ignored: the empty payload is the 400", () =>
        Effect.gen(function* () {
          for (const type of ["multipart/form-data", "multipart/form-data; boundary=x", "text/plain"]) {
            const response = yield* request("/v1/batch", {
              method: "POST",
              headers: { "content-type": type }
            })
            envelope(response, 400, "BAD_REQUEST")
            expect((response.json as { message: string }).message).not.toContain("Encoded side")
          }
        })
      )

      it.effect("a request node cannot parse still gets the envelope", () =>
        Effect.gen(function* () {
          const address = yield* ServerAddress
          const { connect } = yield* Effect.promise(() => import("node:net"))
          const raw = yield* Effect.promise(
            () =>
              new Promise<string>((resolve) => {
                const socket = connect(address.port, address.host, () =>
                  socket.write("GET /\u00fc\u0000 HTTP/1.1\r\nHost: x\r\n\r\n")
                )
                let answer = ""
                socket.on("data", (chunk) => {
                  answer += chunk.toString()
                })
                socket.on("close", () => resolve(answer))
              })
          )
          expect(raw).toMatch(/^HTTP\/1\.1 400/)
          expect(JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4))).toMatchObject({
            defined: true,
            code: "BAD_REQUEST",
            status: 400
          })
        })
      )

      it.effect("a body over the server's limit is 413", () =>
        Effect.gen(function* () {
          const response = yield* request("/v1/batch", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: "x".repeat(2_000_000)
          })
          envelope(response, 413, "PAYLOAD_TOO_LARGE")
        })
      )
    })
  })
})

describe("the rate limit", () => {
  it.layer(catalogTestServer({ CATALOG_RATE_LIMIT: "5" }))((it) => {
    it.effect("answers 429 with Retry-After beyond the budget, on fast and routed paths alike", () =>
      Effect.gen(function* () {
        for (let i = 0; i < 5; i++) expect((yield* request("/v1/episodes/4")).status).toBe(200)
        const fast = yield* request("/v1/episodes/4")
        envelope(fast, 429, "TOO_MANY_REQUESTS")
        expect(Number(fast.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
        const routed = yield* request("/v1/episodes?limit=1")
        envelope(routed, 429, "TOO_MANY_REQUESTS")
        expect(routed.headers.get("retry-after")).not.toBeNull()
      })
    )
  })
})
