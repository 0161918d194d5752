// Transcript search: the paragraphs that hold every word (FlexSearch, whole words), ranked by BM25
// over the paragraph statistics the build step computed, the session filter applied after the
// query (ParagraphRanking.ts, shared with the snapshot reader), each paragraph's terms counted in
// its terms as numbers (ParagraphTerms.ts). Rankings are cached by normalised query.
import * as Either from "effect/Either"
import type { BadRequest } from "../../http/ApiError.js"
import type { CatalogService } from "../Catalog.js"
import type { TranscriptHit } from "../domain/Collections.js"
import { getOrCompute, makeLruCache } from "../LruCache.js"
import { paragraphSlots } from "../SearchOptions.js"
import type { Page, PageRequest, Paginate } from "./Paginate.js"
import { makeParagraphLocator } from "./ParagraphLocator.js"
import {
  findParagraphs,
  type ParagraphCorpus,
  type ParagraphSource,
  type RankedParagraphs,
  scoreParagraphs
} from "./ParagraphRanking.js"
import { queryTerms } from "./QueryTerms.js"
import { makeSlotTables } from "./SlotIntersection.js"
import type { Slots } from "./StaticSearchLayout.js"
import { makeTranscriptHitRenderer } from "./TranscriptHitRenderer.js"

export interface TranscriptQuery extends PageRequest {
  readonly q: string
  readonly session: number | undefined
}

interface Ranking {
  readonly terms: ReadonlySet<string>
  readonly ranked: RankedParagraphs
}

export const makeTranscriptSearch = (
  catalog: CatalogService,
  paginate: Paginate
): ((query: TranscriptQuery) => Either.Either<Page<TranscriptHit>, BadRequest>) => {
  const statistics = catalog.searchData.statistics
  const paragraphTerms = catalog.paragraphTerms
  const locate = makeParagraphLocator(catalog.searchData)
  const sessionOfSlug = new Map(catalog.episodes.map((episode) => [episode.slug, episode.session]))
  const renderHit = makeTranscriptHitRenderer(catalog)
  const rankings = makeLruCache<Ranking>(500)

  const corpus: ParagraphCorpus = {
    paragraphs: statistics.paragraphs,
    averageTerms: statistics.averageTerms,
    documentFrequency: (term) => statistics.documentFrequency[term]
  }
  // Tables of the terms in more than one paragraph in 16: about 90 terms on the corpus, 10 MB.
  const tables = makeSlotTables(Math.ceil(statistics.paragraphs / 16))
  // The transcript index is imported at the first search (SearchIndexes.ts).
  let slotsOf: ((term: string) => Slots | undefined) | undefined
  const rank = (terms: ReadonlyArray<string>, session: number | undefined) => {
    slotsOf ??= paragraphSlots(catalog.indexes.paragraphs)
    // The terms' numbers, looked up once a record is read (its terms are numbered then).
    const termIds = new Array<number | undefined>(terms.length)
    // One answer object for every candidate: ranking reads it before asking for the next.
    const counted = { length: 0, counts: new Uint32Array(terms.length) }
    const source: ParagraphSource = {
      locate,
      sessionOf: (slug) => sessionOfSlug.get(slug),
      terms: (id) => {
        if (!paragraphTerms.filled(id)) {
          // Reading the transcript's record fills its paragraphs' terms.
          const location = locate(id)
          if (
            location === undefined ||
            catalog.transcriptRecord(location.slug)?.paragraphs[location.paragraphIndex] === undefined
          )
            return undefined
        }
        for (let t = 0; t < terms.length; t++) termIds[t] ??= paragraphTerms.termId(terms[t] as string)
        counted.length = paragraphTerms.length(id)
        paragraphTerms.counts(id, termIds, counted.counts)
        return counted
      }
    }
    return scoreParagraphs(findParagraphs(slotsOf, terms, session, tables), terms, session, corpus, source)
  }

  return (query) =>
    Either.flatMap(queryTerms(query.q, "q"), (terms) => {
      const key = `transcripts|${[...terms].sort().join(" ")}|${query.session ?? ""}`
      const ranking = getOrCompute(rankings, key, () => ({
        terms: new Set(terms),
        ranked: rank(terms, query.session)
      }))
      return paginate(ranking.ranked, key, query, renderHit(ranking.terms))
    })
}
