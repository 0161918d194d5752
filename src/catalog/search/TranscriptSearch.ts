// Transcript search: the paragraphs that hold every word (FlexSearch, whole words), ranked by BM25
// over the paragraph statistics the build step computed, the session filter applied after the
// query. Rankings are cached by normalised query.
import * as Either from "effect/Either"
import type { BadRequest } from "../../http/ApiError.js"
import type { CatalogService } from "../Catalog.js"
import { maxSearchResults } from "../CatalogLimits.js"
import type { TranscriptHit } from "../domain/Collections.js"
import { getOrCompute, makeLruCache } from "../LruCache.js"
import { countTerm } from "../SearchOptions.js"
import { bm25, inverseFrequency, roundRelevance } from "./Bm25.js"
import { mergedIds } from "./Candidates.js"
import type { Page, PageRequest, Paginate } from "./Paginate.js"
import { makeParagraphLocator } from "./ParagraphLocator.js"
import { queryTerms } from "./QueryTerms.js"
import { makeTranscriptHitRenderer, type RankedParagraph } from "./TranscriptHitRenderer.js"

export interface TranscriptQuery extends PageRequest {
  readonly q: string
  readonly session: number | undefined
}

interface Ranking {
  readonly terms: ReadonlySet<string>
  readonly ranked: ReadonlyArray<RankedParagraph>
}

export const makeTranscriptSearch = (
  catalog: CatalogService,
  paginate: Paginate
): ((query: TranscriptQuery) => Either.Either<Page<TranscriptHit>, BadRequest>) => {
  const statistics = catalog.searchData.statistics
  const locate = makeParagraphLocator(catalog.searchData)
  const sessionOfSlug = new Map(catalog.episodes.map((episode) => [episode.slug, episode.session]))
  const renderHit = makeTranscriptHitRenderer(catalog)
  const rankings = makeLruCache<Ranking>(500)

  const rank = (q: string, terms: ReadonlyArray<string>, session: number | undefined) => {
    // With a session filter, more candidates are read so that enough remain after filtering.
    const limit = session === undefined ? maxSearchResults : 20 * maxSearchResults
    const found = mergedIds(catalog.indexes.paragraphs.search(q, { limit }))
    const ranked: Array<RankedParagraph> = []
    for (const id of found) {
      const location = locate(id)
      if (location === undefined || (session !== undefined && sessionOfSlug.get(location.slug) !== session))
        continue
      const { slug, paragraphIndex } = location
      const paragraph = catalog.transcriptRecord(slug)?.paragraphs[paragraphIndex]
      if (paragraph === undefined) continue
      const length = statistics.paragraphTerms[id] ?? statistics.averageTerms
      const lower = paragraph.text.toLowerCase()
      let relevance = 0
      for (const term of terms) {
        const tf = countTerm(paragraph.text, lower, term)
        if (tf > 0) {
          relevance += bm25(
            tf,
            length,
            statistics.averageTerms,
            inverseFrequency(statistics.paragraphs, statistics.documentFrequency[term] ?? 1)
          )
        }
      }
      ranked.push({ slug, paragraphIndex, relevance: roundRelevance(relevance) })
      if (ranked.length >= maxSearchResults) break
    }
    return ranked.sort((a, b) => b.relevance - a.relevance)
  }

  return (query) =>
    Either.flatMap(queryTerms(query.q, "q"), (terms) => {
      const key = `transcripts|${[...terms].sort().join(" ")}|${query.session ?? ""}`
      const ranking = getOrCompute(rankings, key, () => ({
        terms: new Set(terms),
        ranked: rank(terms.join(" "), terms, query.session)
      }))
      return paginate(ranking.ranked, key, query, renderHit(ranking.terms))
    })
}
