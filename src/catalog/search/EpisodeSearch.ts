// Episode search: newest first without words; with them, the episodes every word finds (in any
// searched field, by word prefix), ranked by BM25 summed over the fields with their weights, the
// session filter applied after the query. Rankings are cached by normalised query.
import * as Either from "effect/Either"
import type { BadRequest } from "../../http/ApiError.js"
import type { CatalogService } from "../Catalog.js"
import { maxSearchResults } from "../CatalogLimits.js"
import { Episode } from "../domain/Episode.js"
import { getOrCompute, makeLruCache } from "../LruCache.js"
import {
  type EpisodeField,
  episodeFields,
  episodeFieldWeights,
  episodeSearchFields
} from "../SearchOptions.js"
import { bm25, inverseFrequency, roundRelevance } from "./Bm25.js"
import { candidatesOfEvery } from "./Candidates.js"
import type { Page, PageRequest, Paginate } from "./Paginate.js"
import { queryTerms } from "./QueryTerms.js"
import { countTerms, type TermCounts, termFrequency } from "./TermCounts.js"

export interface EpisodeQuery extends PageRequest {
  readonly q: string | undefined
  readonly session: number | undefined
}

/** An episode in a list or a ranking, by its position in the newest-first list. */
interface RankedEpisode {
  readonly index: number
  readonly relevance: number | null
  readonly matchedFields: ReadonlyArray<string>
}

export const makeEpisodeSearch = (
  catalog: CatalogService,
  paginate: Paginate
): ((query: EpisodeQuery) => Either.Either<Page<Episode>, BadRequest>) => {
  const episodes = catalog.episodes
  // Term counts of each searched field of each episode, and the statistics BM25 needs of them.
  const episodeTerms: ReadonlyArray<ReadonlyArray<TermCounts & { readonly field: EpisodeField }>> =
    episodes.map((episode) => {
      const texts = episodeSearchFields(episode)
      return episodeFields.map((field) => ({ field, ...countTerms(texts[field]) }))
    })
  const fieldAverage = new Map<EpisodeField, number>(
    episodeFields.map((field, i) => [
      field,
      episodeTerms.reduce((sum, fields) => sum + (fields[i]?.length ?? 0), 0) / Math.max(episodes.length, 1)
    ])
  )
  const episodeFrequency = new Map<string, number>()
  for (const fields of episodeTerms) {
    const seen = new Set<string>()
    for (const { counts } of fields) for (const term of counts.keys()) seen.add(term)
    for (const term of seen) episodeFrequency.set(term, (episodeFrequency.get(term) ?? 0) + 1)
  }

  const rankings = makeLruCache<ReadonlyArray<RankedEpisode>>(500)
  const inSession = (session: number | undefined) => (index: number) =>
    session === undefined || episodes[index]?.session === session

  const rank = (terms: ReadonlyArray<string>, session: number | undefined): ReadonlyArray<RankedEpisode> => {
    const candidates = candidatesOfEvery(terms, (term) =>
      catalog.indexes.episodes.search(term, { limit: episodes.length })
    )
    const ranked: Array<RankedEpisode> = []
    for (const index of candidates) {
      if (!inSession(session)(index)) continue
      let relevance = 0
      const matched: Array<string> = []
      for (const { field, counts, length } of episodeTerms[index] ?? []) {
        let score = 0
        for (const term of terms) {
          const tf = termFrequency(counts, term)
          if (tf > 0) {
            score += bm25(
              tf,
              length,
              fieldAverage.get(field) ?? 1,
              inverseFrequency(episodes.length, episodeFrequency.get(term) ?? 1)
            )
          }
        }
        if (score > 0) {
          matched.push(field)
          relevance += episodeFieldWeights[field] * score
        }
      }
      ranked.push({ index, relevance: roundRelevance(relevance), matchedFields: matched })
    }
    // Equal relevance: newest first, as the list is ordered.
    return ranked.sort((a, b) => (b.relevance ?? 0) - (a.relevance ?? 0) || a.index - b.index)
  }

  return (query) => {
    const q = query.q?.trim()
    const session = query.session
    if (q === undefined || q === "") {
      const key = `list|${session ?? ""}`
      const listed = getOrCompute(rankings, key, () =>
        episodes.flatMap((_, index) =>
          inSession(session)(index) ? [{ index, relevance: null, matchedFields: [] }] : []
        )
      )
      return paginate(listed, key, query, ({ index }) => episodes[index] as Episode)
    }
    return Either.flatMap(queryTerms(q, "q"), (terms) => {
      const key = `episodes|${[...terms].sort().join(" ")}|${session ?? ""}`
      const ranked = getOrCompute(rankings, key, () => rank(terms, session).slice(0, maxSearchResults))
      return paginate(ranked, key, query, ({ index, relevance, matchedFields }) => {
        const episode = episodes[index] as Episode
        // Validation already happened at load; this only sets the search fields.
        return new Episode({ ...episode, relevance, matchedFields }, true)
      })
    })
  }
}
