// The catalog's reads as typed values (pages, details) for the surfaces that answer with data
// rather than prepared bytes: MCP tools, RPC procedures and ask. They call the same Search and
// Catalog as REST, so results, ranking, cursors and errors are the REST ones.
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import type { BadRequest, NotFound } from "../http/ApiError.js"
import { Catalog, type CatalogService, episodeNotFound, transcriptNotFound } from "./Catalog.js"
import { pageSizeBounds } from "./CatalogLimits.js"
import type { EpisodeSearchRequest, TranscriptSearchRequest } from "./CatalogRequests.js"
import { EpisodePage, TranscriptHitPage } from "./domain/Collections.js"
import { EpisodeDetail } from "./domain/Episode.js"
import { TranscriptDetail } from "./domain/Transcript.js"
import { queryTerms, Search, type SearchService } from "./Search.js"

export interface CatalogReadsService {
  readonly searchEpisodes: (request: EpisodeSearchRequest) => Either.Either<EpisodePage, BadRequest>
  readonly episode: (slug: string) => Either.Either<EpisodeDetail, NotFound>
  readonly searchTranscripts: (
    request: TranscriptSearchRequest
  ) => Either.Either<TranscriptHitPage, BadRequest>
  readonly transcript: (slug: string) => Either.Either<TranscriptDetail, NotFound>
}

export class CatalogReads extends Context.Tag("CatalogReads")<CatalogReads, CatalogReadsService>() {}

/** A query with no searchable word is refused under the name the caller used (`query`, not REST's `q`). */
const checkQuery = (query: string | undefined): Either.Either<void, BadRequest> =>
  query === undefined || query.trim() === ""
    ? Either.void
    : Either.map(queryTerms(query, "query"), () => undefined)

export const makeCatalogReads = (catalog: CatalogService, search: SearchService): CatalogReadsService => ({
  searchEpisodes: (request) =>
    Either.flatMap(checkQuery(request.query), () =>
      Either.map(
        search.episodes({
          q: request.query,
          session: request.session,
          limit: request.limit ?? pageSizeBounds.default,
          cursor: request.cursor
        }),
        (page) => new EpisodePage({ data: page.data, nextCursor: page.nextCursor, schemaVersion: "1" }, true)
      )
    ),
  episode: (slug) => {
    const episode = catalog.episode(slug)
    return episode === undefined
      ? Either.left(episodeNotFound(slug))
      : Either.right(new EpisodeDetail({ data: episode, schemaVersion: "1" }, true))
  },
  searchTranscripts: (request) =>
    Either.flatMap(queryTerms(request.query, "query"), () =>
      Either.map(
        search.transcripts({
          q: request.query,
          session: request.session,
          limit: request.limit ?? pageSizeBounds.default,
          cursor: request.cursor
        }),
        (page) =>
          new TranscriptHitPage({ data: page.data, nextCursor: page.nextCursor, schemaVersion: "1" }, true)
      )
    ),
  transcript: (slug) => {
    const transcript = catalog.transcript(slug)
    if (transcript !== undefined)
      return Either.right(new TranscriptDetail({ data: transcript, schemaVersion: "1" }, true))
    return Either.left(transcriptNotFound(catalog, slug))
  }
})

export const CatalogReadsLive = Layer.effect(
  CatalogReads,
  Effect.map(Effect.all([Catalog, Search]), ([catalog, search]) => makeCatalogReads(catalog, search))
)
