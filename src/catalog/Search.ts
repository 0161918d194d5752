// The Search service: episode, transcript and documentation search over the prebuilt indexes, each
// in its own module under search/ (FlexSearch finds the candidates, BM25 ranks them, cursors page
// them). Searches are synchronous and cached per normalised query: they answer on the hot path.
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type { BadRequest } from "../http/ApiError.js"
import { Catalog, type CatalogService } from "./Catalog.js"
import { CatalogConfig } from "./CatalogConfig.js"
import { makeCursorCodec } from "./Cursor.js"
import type { TranscriptHit } from "./domain/Collections.js"
import type { Episode } from "./domain/Episode.js"
import { type DocHit, makeDocsSearch } from "./search/DocsSearch.js"
import type { RankedEpisode } from "./search/EpisodeRanking.js"
import { type EpisodeQuery, makeEpisodeSearch } from "./search/EpisodeSearch.js"
import { makePaginate, type Page } from "./search/Paginate.js"
import { makeTranscriptSearch, type TranscriptQuery } from "./search/TranscriptSearch.js"

export type { DocHit } from "./search/DocsSearch.js"
export type { EpisodeQuery } from "./search/EpisodeSearch.js"
export type { Page, PageRequest } from "./search/Paginate.js"
export { queryTerms } from "./search/QueryTerms.js"
export type { TranscriptQuery } from "./search/TranscriptSearch.js"

export interface SearchService {
  /** Newest first without `q`; by relevance with it. */
  readonly episodes: (query: EpisodeQuery) => Either.Either<Page<Episode>, BadRequest>
  /** The same page as ranked episodes (each by its index in the catalog's list), for writers of bytes. */
  readonly rankedEpisodes: (query: EpisodeQuery) => Either.Either<Page<RankedEpisode>, BadRequest>
  readonly transcripts: (query: TranscriptQuery) => Either.Either<Page<TranscriptHit>, BadRequest>
  readonly docs: (q: string, limit: number) => Either.Either<ReadonlyArray<DocHit>, BadRequest>
}

export class Search extends Context.Tag("Search")<Search, SearchService>() {}

/** The searches over a loaded snapshot, with cursors signed by `cursorSecret`. */
export const makeSearch = (catalog: CatalogService, cursorSecret: string): SearchService => {
  const paginate = makePaginate(makeCursorCodec(catalog.manifest.id, cursorSecret))
  const episodes = makeEpisodeSearch(catalog, paginate)
  return {
    episodes: episodes.episodes,
    rankedEpisodes: episodes.ranked,
    transcripts: makeTranscriptSearch(catalog, paginate),
    docs: makeDocsSearch(catalog)
  }
}

/** Counting every episode's and page's terms takes a moment at start-up: worth a span of its own. */
const make = Effect.fn("Search.make")(function* () {
  const catalog = yield* Catalog
  const config = yield* CatalogConfig
  const secret = Option.match(config.cursorSecret, {
    onNone: () => `cursor:${catalog.manifest.id}`,
    onSome: Redacted.value
  })
  return makeSearch(catalog, secret)
})

export const SearchLive = Layer.effect(Search, make())
