// The catalog's GET operations as prepared responses: one implementation of the contract that the
// HttpApi handlers, the batch endpoint and the node fast path all answer from (routed by
// CatalogRouteTable.ts). Details come straight from the snapshot's bytes; lists and searches are
// written as JSON (episode pages from each episode's JSON prepared once, EpisodePageBytes.ts;
// transcript pages as their Schema classes, PageJson.ts) and cached.
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { type BadRequest, NotFound } from "../../http/ApiError.js"
import { type PreparedResponse, prepareJson } from "../../http/PreparedResponse.js"
import {
  Catalog,
  type CatalogService,
  cacheControl,
  episodeNotFound,
  transcriptNotFound
} from "../Catalog.js"
import { pageSizeBounds } from "../CatalogLimits.js"
import { Health, HealthSnapshot, TranscriptHitPage } from "../domain/Collections.js"
import { getOrComputeRight, makeDoorkeeper, makeLruCache } from "../LruCache.js"
import { Search, type SearchService } from "../Search.js"
import { renderEpisode } from "../search/EpisodeSearch.js"
import type { EpisodeListParams, TranscriptSearchParams } from "./CatalogApi.js"
import { makeEpisodePageBytes } from "./EpisodePageBytes.js"
import { pageJson } from "./PageJson.js"

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
}

export class CatalogOperations extends Context.Tag("CatalogOperations")<
  CatalogOperations,
  CatalogOperationsService
>() {}

const defaultLimit = pageSizeBounds.default

/**
 * Answers computed per query are kept from their second asking, so repeats and revalidations cost
 * a lookup. Not from the first: most searches of an archive are asked once, and each answer kept
 * would outlive the young generation's collections, its bytes (memory outside the heap) with it,
 * until a full collection; under distinct queries, one every couple of seconds (bench/HISTORY.md,
 * issue 29). The doorkeeper remembers four times as many queries as the cache keeps answers.
 */
const makeResponseCache = (capacity: number) => {
  const responses = makeLruCache<PreparedResponse>(capacity)
  const askedBefore = makeDoorkeeper(4 * capacity)
  return <E>(key: string, compute: () => Either.Either<PreparedResponse, E>) =>
    getOrComputeRight(responses, key, compute, askedBefore)
}

const encodeJson = <A, I>(schema: Schema.Schema<A, I>, value: A) =>
  JSON.stringify(Schema.encodeSync(schema)(value))

export const makeCatalogOperations = (
  catalog: CatalogService,
  search: SearchService
): CatalogOperationsService => {
  const cached = makeResponseCache(2000)
  const episodePageBytes = makeEpisodePageBytes(catalog.episodes, renderEpisode(catalog.episodes))

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
          search.rankedEpisodes({
            q: query.q,
            session: query.session,
            limit: query.limit ?? defaultLimit,
            cursor: query.cursor
          }),
          (page) => prepareJson(episodePageBytes(page), cacheControl.collection)
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
            pageJson(
              // As the episode page: hits built from validated records.
              new TranscriptHitPage(
                { data: page.data, nextCursor: page.nextCursor, schemaVersion: "1" },
                true
              )
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

  return {
    health,
    listEpisodes,
    episode,
    searchTranscripts,
    transcript,
    manifest: catalog.manifestResponse,
    file
  }
}

export const CatalogOperationsLive = Layer.effect(
  CatalogOperations,
  Effect.map(Effect.all([Catalog, Search]), ([catalog, search]) => makeCatalogOperations(catalog, search))
)
