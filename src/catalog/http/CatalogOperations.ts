// The catalog's GET operations as prepared responses: one implementation of the contract that the
// HttpApi handlers, the batch endpoint and the node fast path all answer from. Details come straight
// from the snapshot's bytes; lists and searches are encoded with their Schema classes and cached.
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as FindMyWay from "find-my-way-ts"
import { type ApiError, BadRequest, NotFound, toEnvelope } from "../../http/ApiError.js"
import { badRequestFromParseError } from "../../http/ErrorResponse.js"
import { type PreparedResponse, prepareJson } from "../../http/PreparedResponse.js"
import {
  Catalog,
  type CatalogService,
  cacheControl,
  episodeNotFound,
  transcriptNotFound
} from "../Catalog.js"
import { pageSizeBounds } from "../CatalogLimits.js"
import { EpisodePage, Health, HealthSnapshot, TranscriptHitPage } from "../domain/Collections.js"
import { getOrComputeRight, makeLruCache } from "../LruCache.js"
import { Search, type SearchService } from "../Search.js"
import { type BatchRequest, BatchResponse, BatchResult } from "./Batch.js"
import { EpisodeListParams, TranscriptSearchParams } from "./CatalogApi.js"

export type EpisodeListQuery = typeof EpisodeListParams.Type
export type TranscriptSearchQuery = typeof TranscriptSearchParams.Type

export interface CatalogOperationsService {
  readonly health: PreparedResponse
  readonly listEpisodes: (query: EpisodeListQuery) => Either.Either<PreparedResponse, BadRequest>
  readonly episode: (slug: string) => Either.Either<PreparedResponse, NotFound>
  readonly searchTranscripts: (query: TranscriptSearchQuery) => Either.Either<PreparedResponse, BadRequest>
  readonly transcript: (slug: string) => Either.Either<PreparedResponse, NotFound>
  readonly manifest: PreparedResponse
  readonly file: (path: string) => Either.Either<PreparedResponse, NotFound>
  /** The operations with a query string, by their exact path (list and search). */
  readonly queries: ReadonlyMap<string, QueryOperation>
  /** Answers each request of a batch on its own, in order. */
  readonly batch: (request: BatchRequest) => BatchResponse
}

export class CatalogOperations extends Context.Tag("CatalogOperations")<
  CatalogOperations,
  CatalogOperationsService
>() {}

const defaultLimit = pageSizeBounds.default

/** Answers computed per query are kept, so repeats and revalidations cost a lookup. */
const makeResponseCache = (capacity: number) => {
  const responses = makeLruCache<PreparedResponse>(capacity)
  return <E>(key: string, compute: () => Either.Either<PreparedResponse, E>) =>
    getOrComputeRight(responses, key, compute)
}

const encodeJson = <A, I>(schema: Schema.Schema<A, I>, value: A) =>
  JSON.stringify(Schema.encodeSync(schema)(value))

/** A query string as the router parses it: repeated names give arrays. */
export type QueryParams = Readonly<Record<string, string | ReadonlyArray<string>>>

/** A GET operation that reads its query string, decoded by the schema of its HttpApi endpoint. */
export type QueryOperation = (query: QueryParams) => Either.Either<PreparedResponse, ApiError>

type BatchOperation = (
  params: Readonly<Record<string, string | undefined>>,
  query: QueryParams
) => Either.Either<PreparedResponse, ApiError>

export const makeCatalogOperations = (
  catalog: CatalogService,
  search: SearchService
): CatalogOperationsService => {
  const cached = makeResponseCache(2000)

  const health = prepareJson(
    encodeJson(
      Health,
      new Health({
        status: "ok",
        snapshot: new HealthSnapshot({
          id: catalog.manifest.id,
          builtAt: catalog.manifest.builtAt,
          episodes: catalog.manifest.counts.episodes,
          transcripts: catalog.manifest.counts.transcripts
        })
      })
    ),
    "no-cache"
  )

  const listEpisodes = (query: EpisodeListQuery) =>
    cached(
      `episodes ${JSON.stringify([query.q?.trim() ?? "", query.session, query.limit, query.cursor])}`,
      () =>
        Either.map(
          search.episodes({
            q: query.q,
            session: query.session,
            limit: query.limit ?? defaultLimit,
            cursor: query.cursor
          }),
          (page) =>
            prepareJson(
              encodeJson(
                EpisodePage,
                new EpisodePage({ data: page.data, nextCursor: page.nextCursor, schemaVersion: "1" })
              ),
              cacheControl.collection
            )
        )
    )

  const searchTranscripts = (query: TranscriptSearchQuery) =>
    cached(`transcripts ${JSON.stringify([query.q.trim(), query.session, query.limit, query.cursor])}`, () =>
      Either.map(
        search.transcripts({
          q: query.q,
          session: query.session,
          limit: query.limit ?? defaultLimit,
          cursor: query.cursor
        }),
        (page) =>
          prepareJson(
            encodeJson(
              TranscriptHitPage,
              new TranscriptHitPage({ data: page.data, nextCursor: page.nextCursor, schemaVersion: "1" })
            ),
            cacheControl.collection
          )
      )
    )

  const episode = (slug: string) => {
    const prepared = catalog.episodeResponse(slug)
    return prepared === undefined ? Either.left(episodeNotFound(slug)) : Either.right(prepared)
  }

  const transcript = (slug: string) => {
    const prepared = catalog.transcriptResponse(slug)
    return prepared === undefined ? Either.left(transcriptNotFound(catalog, slug)) : Either.right(prepared)
  }

  const file = (path: string) => {
    const prepared = catalog.fileResponse(path)
    return prepared === undefined
      ? Either.left(new NotFound({ message: `The snapshot has no file "${path}".`, data: { path } }))
      : Either.right(prepared)
  }

  // The batch and the fast path call the same operations, with parameters decoded by the same schemas.
  const decodeQuery =
    <A, I>(
      schema: Schema.Schema<A, I>,
      run: (query: A) => Either.Either<PreparedResponse, ApiError>
    ): QueryOperation =>
    (query) =>
      Either.flatMap(Either.mapLeft(Schema.decodeUnknownEither(schema)(query), badRequestFromParseError), run)
  const queries = new Map<`/${string}`, QueryOperation>([
    ["/v1/episodes", decodeQuery(EpisodeListParams, listEpisodes)],
    ["/v1/transcripts/search", decodeQuery(TranscriptSearchParams, searchTranscripts)]
  ])
  const batchRoutes = FindMyWay.make<BatchOperation>()
  for (const [path, operation] of queries) batchRoutes.on("GET", path, (_, query) => operation(query))
  batchRoutes.on("GET", "/v1/episodes/:slug", (params) => episode(params.slug ?? ""))
  batchRoutes.on("GET", "/v1/transcripts/:slug", (params) => transcript(params.slug ?? ""))
  batchRoutes.on("GET", "/v1/snapshot", () => Either.right(catalog.manifestResponse))

  const runOne = (path: string): Either.Either<PreparedResponse, ApiError> => {
    if (
      !path.startsWith("/v1/") ||
      path === "/v1/batch" ||
      path.startsWith("/v1/batch?") ||
      path.startsWith("/v1/batch/")
    ) {
      return Either.left(
        new BadRequest({
          message: "path must be a GET path of this API under /v1 (batch excluded)",
          data: { path }
        })
      )
    }
    const found = batchRoutes.find("GET", path)
    if (found === undefined)
      return Either.left(new NotFound({ message: `No route for GET ${path.split("?")[0]}.`, data: { path } }))
    return found.handler(found.params, found.searchParams)
  }

  const batch = (request: BatchRequest) =>
    new BatchResponse({
      responses: request.requests.map((item) =>
        Either.match(runOne(item.path), {
          onLeft: (error) =>
            new BatchResult({ id: item.id, status: toEnvelope(error).status, body: toEnvelope(error) }),
          onRight: (prepared) =>
            new BatchResult({
              id: item.id,
              status: 200,
              etag: prepared.variants.identity.etag,
              body: JSON.parse(Buffer.from(prepared.variants.identity.body).toString("utf8"))
            })
        })
      )
    })

  return {
    health,
    listEpisodes,
    episode,
    searchTranscripts,
    transcript,
    manifest: catalog.manifestResponse,
    file,
    queries,
    batch
  }
}

export const CatalogOperationsLive = Layer.effect(
  CatalogOperations,
  Effect.map(Effect.all([Catalog, Search]), ([catalog, search]) => makeCatalogOperations(catalog, search))
)
