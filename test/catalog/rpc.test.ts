// The catalog's RPC endpoint through the real RpcClient over HTTP: the exported typed client
// (`@podcast-platform/catalog-client`) for every procedure, answers equal to REST's, typed failures, payloads
// that do not decode (sent by a client that skips the types) as typed BadRequests rather than
// defects, the shared rate limit, and the methods /rpc refuses.
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as RpcClient from "@effect/rpc/RpcClient"
import type { RpcClientError } from "@effect/rpc/RpcClientError"
import type * as RpcGroup from "@effect/rpc/RpcGroup"
import * as RpcSerialization from "@effect/rpc/RpcSerialization"
import { describe, expect, it } from "@effect/vitest"
import {
  AskAnswer,
  BadRequest,
  CatalogClient,
  EpisodeDetail,
  EpisodePage,
  NotFound,
  TooManyRequests,
  TranscriptDetail,
  TranscriptHitPage
} from "@podcast-platform/catalog-client"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { CatalogRpcsServed } from "../../src/catalog/rpc/CatalogRpcServer.js"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { contentTestServer } from "../support/ContentTestServer.js"
import { request } from "../support/TestServer.js"

/** The exported client, pointed at the test server. */
const withClient = <A, E, R>(use: (client: typeof CatalogClient.Service) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(ServerAddress, (address) =>
    Effect.flatMap(CatalogClient, use).pipe(
      Effect.provide(CatalogClient.layer({ url: `${address.url}/rpc` }))
    )
  )

/**
 * An RpcClient that ignores the payload types (built from the server's own group, whose payloads
 * are unknown), to send what a careless or hostile caller would.
 */
const withUntypedClient = <A, E>(
  use: (
    client: RpcClient.RpcClient<RpcGroup.Rpcs<typeof CatalogRpcsServed>, RpcClientError>
  ) => Effect.Effect<A, E>
) =>
  Effect.flatMap(ServerAddress, (address) =>
    Effect.scoped(Effect.flatMap(RpcClient.make(CatalogRpcsServed), use)).pipe(
      Effect.provide(
        RpcClient.layerProtocolHttp({ url: `${address.url}/rpc` }).pipe(
          Layer.provide([FetchHttpClient.layer, RpcSerialization.layerJson])
        )
      )
    )
  )

const restJson = (path: string, init?: RequestInit) =>
  Effect.map(request(path, init), (response) => {
    expect(response.status).toBe(200)
    return response.json
  })

/** The typed failure of an effect; fails the test if it succeeded or died. */
const failureOf = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.map(Effect.exit(effect), (exit) => {
    if (Exit.isSuccess(exit)) throw new Error("expected a failure")
    const failure = Cause.failureOption(exit.cause)
    if (Option.isNone(failure)) throw new Error(`expected a typed failure, got ${Cause.pretty(exit.cause)}`)
    return failure.value
  })

describe("the catalog RPC endpoint", () => {
  it.layer(contentTestServer())((it) => {
    it.effect("SearchEpisodes lists and searches as GET /v1/episodes, with cursors", () =>
      withClient((client) =>
        Effect.gen(function* () {
          const page = yield* client.SearchEpisodes({ limit: 4 })
          expect(page).toBeInstanceOf(EpisodePage)
          expect(Schema.encodeSync(EpisodePage)(page)).toEqual(yield* restJson("/v1/episodes?limit=4"))
          const next = yield* client.SearchEpisodes({ limit: 4, cursor: page.nextCursor ?? "" })
          expect(Schema.encodeSync(EpisodePage)(next)).toEqual(
            yield* restJson(`/v1/episodes?limit=4&cursor=${encodeURIComponent(page.nextCursor ?? "")}`)
          )
          const ranked = yield* client.SearchEpisodes({ query: "wheat starch paste", session: 1 })
          expect(Schema.encodeSync(EpisodePage)(ranked)).toEqual(
            yield* restJson("/v1/episodes?q=wheat%20starch%20paste&session=1")
          )
          expect(ranked.data[0]?.slug).toBe("7")
        })
      )
    )

    it.effect("GetEpisode and GetTranscript answer the REST details, byte for byte once encoded", () =>
      withClient((client) =>
        Effect.gen(function* () {
          const episode = yield* client.GetEpisode({ slug: "12" })
          expect(episode).toBeInstanceOf(EpisodeDetail)
          expect(Schema.encodeSync(EpisodeDetail)(episode)).toEqual(yield* restJson("/v1/episodes/12"))
          const transcript = yield* client.GetTranscript({ slug: "12" })
          expect(transcript).toBeInstanceOf(TranscriptDetail)
          expect(Schema.encodeSync(TranscriptDetail)(transcript)).toEqual(
            yield* restJson("/v1/transcripts/12")
          )
          expect(transcript.data.paragraphs.length).toBeGreaterThan(10)
        })
      )
    )

    it.effect("SearchTranscripts and Ask answer as REST does", () =>
      withClient((client) =>
        Effect.gen(function* () {
          const hits = yield* client.SearchTranscripts({ query: "speed of sound", limit: 3 })
          expect(Schema.encodeSync(TranscriptHitPage)(hits)).toEqual(
            yield* restJson("/v1/transcripts/search?q=speed%20of%20sound&limit=3")
          )
          const answer = yield* client.Ask({ question: "Who found the wreck of the Margery Hale?", limit: 2 })
          expect(answer).toBeInstanceOf(AskAnswer)
          expect(Schema.encodeSync(AskAnswer)(answer)).toEqual(
            yield* restJson("/ask", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ question: "Who found the wreck of the Margery Hale?", limit: 2 })
            })
          )
          expect(answer.citations.length).toBeGreaterThan(0)
        })
      )
    )

    it.effect("unknown slugs, missing transcripts and foreign cursors are typed failures", () =>
      withClient((client) =>
        Effect.gen(function* () {
          const missing = yield* failureOf(client.GetEpisode({ slug: "999" }))
          expect(missing).toBeInstanceOf(NotFound)
          expect(missing).toMatchObject({ _tag: "NotFound", message: 'No episode has the slug "999".' })
          const noTranscript = yield* failureOf(client.GetTranscript({ slug: "41" }))
          expect(noTranscript).toMatchObject({
            _tag: "NotFound",
            message: "Episode 41 has no local transcript.",
            data: { slug: "41", transcriptAvailable: false }
          })
          const page = yield* client.SearchEpisodes({ limit: 1 })
          const foreign = yield* failureOf(
            client.SearchEpisodes({ query: "maps", cursor: page.nextCursor ?? "" })
          )
          expect(foreign).toBeInstanceOf(BadRequest)
          expect(foreign.message).toContain("cursor belongs to another query")
          const meaningless = yield* failureOf(client.SearchTranscripts({ query: "?" }))
          expect(meaningless.message).toBe(
            "query must hold at least one word of two or more letters or digits"
          )
          const nothing = yield* failureOf(client.Ask({ question: "what is it?" }))
          expect(nothing.message).toContain("question names nothing to look for")
        })
      )
    )

    it.effect(
      "the typed client refuses out-of-contract arguments with a typed BadRequest before sending",
      () =>
        withClient((client) =>
          Effect.gen(function* () {
            const limit = yield* failureOf(client.SearchEpisodes({ limit: 0 }))
            expect(limit).toBeInstanceOf(BadRequest)
            expect(limit.message).toBe("limit: must be an integer from 1 to 50")
            expect((yield* failureOf(client.GetEpisode({ slug: "twelve" }))).message).toBe(
              'slug: must be an episode number as text, such as "12" or "-1"'
            )
            expect((yield* failureOf(client.Ask({ question: "" }))).message).toBe(
              "question: must not be empty"
            )
          })
        )
    )

    it.effect(
      "payloads that do not decode on the server are typed BadRequests naming the field, never defects",
      () =>
        withUntypedClient((client) =>
          Effect.gen(function* () {
            const cases: ReadonlyArray<readonly [Effect.Effect<unknown, unknown>, string]> = [
              [client.SearchEpisodes({ limit: 0 }), "limit: must be an integer from 1 to 50"],
              [client.SearchEpisodes({ limit: "10" }), 'limit: Expected number, actual "10"'],
              [
                client.SearchEpisodes({ q: "maps" }),
                'q: is unexpected, expected: "query" | "session" | "limit" | "cursor"'
              ],
              [client.GetEpisode({}), "slug: is missing"],
              [client.GetEpisode({ slug: 12 }), "slug: Expected string, actual 12"],
              [
                client.GetTranscript({ slug: "../../etc" }),
                'slug: must be an episode number as text, such as "12" or "-1"'
              ],
              [client.SearchTranscripts({ query: "x".repeat(501) }), "query: must be at most 500 characters"],
              [client.SearchTranscripts(null), "must be an object { query, session?, limit?, cursor? }"],
              [client.Ask({ question: "maps", limit: 21 }), "limit: must be an integer from 1 to 20"]
            ]
            for (const [call, message] of cases) {
              const error = yield* failureOf(call)
              expect(error).toBeInstanceOf(BadRequest)
              expect((error as BadRequest).message).toContain(message)
            }
          })
        )
    )

    it.effect(
      "GET and other methods on /rpc answer 405 with Allow: POST; malformed bodies do not break it",
      () =>
        Effect.gen(function* () {
          for (const method of ["GET", "PUT", "DELETE"]) {
            const response = yield* request("/rpc", { method })
            expect(response.status, method).toBe(405)
            expect(response.headers.get("allow")).toBe("POST")
            expect(response.json).toMatchObject({ code: "METHOD_NOT_ALLOWED" })
          }
          const malformed = yield* request("/rpc", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: "{ not json"
          })
          expect(malformed.status).toBe(200)
          expect(malformed.json).toEqual([
            { _tag: "Defect", defect: expect.objectContaining({ name: "SyntaxError" }) }
          ])
          const raw = yield* request("/rpc", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              _tag: "Request",
              id: "7",
              tag: "GetEpisode",
              payload: { slug: "15" },
              headers: []
            })
          })
          const [exit] = raw.json as Array<{
            _tag: string
            requestId: string
            exit: { _tag: string; value: { data: { slug: string } } }
          }>
          expect(exit).toMatchObject({ _tag: "Exit", requestId: "7", exit: { _tag: "Success" } })
          expect(exit?.exit.value.data.slug).toBe("15")
        })
    )
  })
})

describe("RPC and the rate limit", () => {
  it.layer(contentTestServer({ CATALOG_RATE_LIMIT: "3" }))((it) => {
    it.effect(
      "each call spends from the budget REST uses; beyond it, a typed TooManyRequests with the wait",
      () =>
        withClient((client) =>
          Effect.gen(function* () {
            yield* client.GetEpisode({ slug: "1" })
            expect((yield* request("/v1/episodes?limit=1")).status).toBe(200)
            yield* client.SearchEpisodes({ limit: 1 })
            const refused = yield* failureOf(client.GetEpisode({ slug: "1" }))
            expect(refused).toBeInstanceOf(TooManyRequests)
            expect((refused as TooManyRequests).retryAfterSeconds).toBeGreaterThan(0)
            expect(refused.message).toContain("More than 3 requests a minute")
          })
        )
    )
  })
})
