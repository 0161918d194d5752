// How episodes are found and ranked, as one piece of code for every place that searches them: the
// service (EpisodeSearch.ts, over the whole index and each episode's term counts in memory) and the
// snapshot reader (packages/snapshot-reader, over the parts of the index a query needs and the
// frequencies the build wrote beside them). FlexSearch finds the episodes every word finds in some
// field (by word beginning); BM25 per field, weighted and summed, ranks them.
import { maxSearchResults } from "../CatalogLimits.js"
import type { Episode } from "../domain/Episode.js"
import {
  type EpisodeIndex,
  episodeFields,
  episodeFieldWeights,
  episodeSearchFields
} from "../SearchOptions.js"
import { bm25, inverseFrequency, roundRelevance } from "./Bm25.js"
import { candidatesOfEvery } from "./Candidates.js"
import { numberFieldTerms, type QueryFrequencies } from "./FieldTermNumbers.js"
import { countTerms, type TermCounts } from "./TermCounts.js"

/** An episode in a list or a ranking, by its position in the newest-first list (its index id). */
export interface RankedEpisode {
  readonly index: number
  readonly relevance: number | null
  readonly matchedFields: ReadonlyArray<string>
}

/** The episodes every term finds in some field, in the order the first term found them. */
export const findEpisodes = (
  index: EpisodeIndex,
  terms: ReadonlyArray<string>,
  episodes: number
): ReadonlyArray<number> => candidatesOfEvery(terms, (term) => index.search(term, { limit: episodes }))

/** What ranking reads of the episodes; fields by their position in `episodeFields`. */
export interface EpisodeSource {
  /** How many episodes there are (BM25's N). */
  readonly episodes: number
  readonly sessionOf: (index: number) => number | undefined
  /** A field's average length in search terms over all episodes. */
  readonly fieldAverage: (field: number) => number
  /** An episode's field length in search terms. */
  readonly fieldLength: (index: number, field: number) => number
  /** For one query's terms: TermCounts.termFrequency of its `t`-th term in an episode's field. */
  readonly termFrequencies: (terms: ReadonlyArray<string>) => QueryFrequencies
  /** In how many episodes some field holds the word itself, if any does. */
  readonly episodeFrequency: (term: string) => number | undefined
}

/** The candidates in `session` (if any) by BM25 summed over the weighted fields, the first `maxSearchResults`. */
export const rankEpisodes = (
  candidates: Iterable<number>,
  terms: ReadonlyArray<string>,
  session: number | undefined,
  source: EpisodeSource
): Array<RankedEpisode> => {
  const frequency = source.termFrequencies(terms)
  // A term's weight is the same in every episode and field: computed once a query.
  const idf = terms.map((term) => inverseFrequency(source.episodes, source.episodeFrequency(term) ?? 1))
  const ranked: Array<RankedEpisode> = []
  for (const index of candidates) {
    if (session !== undefined && source.sessionOf(index) !== session) continue
    let relevance = 0
    const matched: Array<string> = []
    episodeFields.forEach((field, f) => {
      let score = 0
      for (let t = 0; t < terms.length; t++) {
        const tf = frequency(index, f, t)
        if (tf > 0) score += bm25(tf, source.fieldLength(index, f), source.fieldAverage(f), idf[t] as number)
      }
      if (score > 0) {
        matched.push(field)
        relevance += episodeFieldWeights[field] * score
      }
    })
    ranked.push({ index, relevance: roundRelevance(relevance), matchedFields: matched })
  }
  // Equal relevance: newest first, as the list is ordered.
  return ranked
    .sort((a, b) => (b.relevance ?? 0) - (a.relevance ?? 0) || a.index - b.index)
    .slice(0, maxSearchResults)
}

/** Each episode's term counts per field, and what BM25 needs of them over all episodes. */
export interface EpisodeStatistics {
  /** By episode, then by field (`episodeFields` order). */
  readonly terms: ReadonlyArray<ReadonlyArray<TermCounts>>
  /** By field (`episodeFields` order). */
  readonly fieldAverages: ReadonlyArray<number>
  /** In how many episodes some field holds each term. */
  readonly episodeFrequency: ReadonlyMap<string, number>
}

/** Counted once per snapshot: by the service when it loads, by the build for the static search files. */
export const episodeStatistics = (episodes: ReadonlyArray<Episode>): EpisodeStatistics => {
  const terms = episodes.map((episode) => {
    const texts = episodeSearchFields(episode)
    return episodeFields.map((field) => countTerms(texts[field]))
  })
  const fieldAverages = episodeFields.map(
    (_, f) => terms.reduce((sum, fields) => sum + (fields[f]?.length ?? 0), 0) / Math.max(episodes.length, 1)
  )
  const episodeFrequency = new Map<string, number>()
  for (const fields of terms) {
    const seen = new Set<string>()
    for (const { counts } of fields) for (const term of counts.keys()) seen.add(term)
    for (const term of seen) episodeFrequency.set(term, (episodeFrequency.get(term) ?? 0) + 1)
  }
  return { terms, fieldAverages, episodeFrequency }
}

/** The source of ranking over counted statistics, as the service ranks. */
export const countedEpisodeSource = (
  statistics: EpisodeStatistics,
  sessionOf: (index: number) => number | undefined
): EpisodeSource => {
  const numbered = numberFieldTerms(statistics.terms, episodeFields.length)
  return {
    episodes: statistics.terms.length,
    sessionOf,
    fieldAverage: (f) => statistics.fieldAverages[f] ?? 1,
    fieldLength: (index, f) => statistics.terms[index]?.[f]?.length ?? 0,
    termFrequencies: numbered.frequencies,
    episodeFrequency: (term) => statistics.episodeFrequency.get(term)
  }
}
