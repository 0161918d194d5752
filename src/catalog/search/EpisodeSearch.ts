// Episode search: newest first without words; with them, the episodes every word finds (in any
// searched field, by word prefix), ranked by BM25 summed over the fields with their weights, the
// session filter applied after the query (EpisodeRanking.ts, shared with the snapshot reader).
// Rankings are cached by normalised query.
import * as Either from "effect/Either"
import type { BadRequest } from "../../http/ApiError.js"
import type { CatalogService } from "../Catalog.js"
import { Episode } from "../domain/Episode.js"
import { getOrCompute, makeLruCache } from "../LruCache.js"
import {
  countedEpisodeSource,
  episodeStatistics,
  findEpisodes,
  type RankedEpisode,
  rankEpisodes
} from "./EpisodeRanking.js"
import type { Page, PageRequest, Paginate } from "./Paginate.js"
import { queryTerms } from "./QueryTerms.js"

export interface EpisodeQuery extends PageRequest {
  readonly q: string | undefined
  readonly session: number | undefined
}

/** An episode search's page as ranked episodes (by index), or as the Episode records they render. */
export interface EpisodeSearch {
  readonly ranked: (query: EpisodeQuery) => Either.Either<Page<RankedEpisode>, BadRequest>
  readonly episodes: (query: EpisodeQuery) => Either.Either<Page<Episode>, BadRequest>
}

/** A ranked episode as its record, with the search fields set (relevance, matched fields). */
export const renderEpisode =
  (episodes: ReadonlyArray<Episode>) =>
  ({ index, relevance, matchedFields }: RankedEpisode): Episode => {
    const episode = episodes[index] as Episode
    if (relevance === null && matchedFields.length === 0) return episode
    // Validation already happened at load; this only sets the search fields.
    return new Episode({ ...episode, relevance, matchedFields }, true)
  }

export const makeEpisodeSearch = (catalog: CatalogService, paginate: Paginate): EpisodeSearch => {
  const episodes = catalog.episodes
  const source = countedEpisodeSource(episodeStatistics(episodes), (index) => episodes[index]?.session)
  const rankings = makeLruCache<ReadonlyArray<RankedEpisode>>(500)
  const inSession = (session: number | undefined) => (index: number) =>
    session === undefined || episodes[index]?.session === session

  const rank = (terms: ReadonlyArray<string>, session: number | undefined): ReadonlyArray<RankedEpisode> =>
    rankEpisodes(findEpisodes(catalog.indexes.episodes, terms, episodes.length), terms, session, source)

  const asRanked = (ranked: RankedEpisode) => ranked
  const rankedPage = (query: EpisodeQuery): Either.Either<Page<RankedEpisode>, BadRequest> => {
    const q = query.q?.trim()
    const session = query.session
    if (q === undefined || q === "") {
      const key = `list|${session ?? ""}`
      const listed = getOrCompute(rankings, key, () =>
        episodes.flatMap((_, index) =>
          inSession(session)(index) ? [{ index, relevance: null, matchedFields: [] }] : []
        )
      )
      return paginate(listed, key, query, asRanked)
    }
    return Either.flatMap(queryTerms(q, "q"), (terms) => {
      const key = `episodes|${[...terms].sort().join(" ")}|${session ?? ""}`
      const ranked = getOrCompute(rankings, key, () => rank(terms, session))
      return paginate(ranked, key, query, asRanked)
    })
  }
  const render = renderEpisode(episodes)
  return {
    ranked: rankedPage,
    episodes: (query) => Either.map(rankedPage(query), (page) => ({ ...page, data: page.data.map(render) }))
  }
}
