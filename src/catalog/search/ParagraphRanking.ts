// How transcript paragraphs are found and ranked, as one piece of code for every place that searches
// them: the service (TranscriptSearch.ts, over the whole index in memory) and the snapshot reader
// (packages/snapshot-reader, over the parts of the index a query needs). FlexSearch finds the
// paragraphs that hold every word, in its order, at most `candidateLimit`; BM25 over the paragraph
// statistics ranks the first `maxSearchResults` of those in the session asked for.
import { maxSearchResults } from "../CatalogLimits.js"
import type { ParagraphIndex } from "../SearchOptions.js"
import { bm25, inverseFrequency, roundRelevance } from "./Bm25.js"
import { mergedIds } from "./Candidates.js"
import type { ParagraphLocation } from "./ParagraphLocator.js"

/** A ranked paragraph: where it is and its relevance. */
export interface RankedParagraph extends ParagraphLocation {
  readonly relevance: number
}

/** With a session filter, more candidates are read so that enough remain after filtering. */
export const candidateLimit = (session: number | undefined) =>
  session === undefined ? maxSearchResults : 20 * maxSearchResults

/** The paragraphs that hold every term, in FlexSearch's order (the text it is asked is the terms). */
export const findParagraphs = (
  index: ParagraphIndex,
  terms: ReadonlyArray<string>,
  session: number | undefined
): Array<number> => mergedIds(index.search(terms.join(" "), { limit: candidateLimit(session) }))

/** What ranking reads of the whole transcript index. */
export interface ParagraphCorpus {
  readonly paragraphs: number
  readonly averageTerms: number
  /** In how many paragraphs `term` occurs, if known. */
  readonly documentFrequency: (term: string) => number | undefined
}

/** What ranking reads of one paragraph. */
export interface ParagraphTerms {
  /** How many of its search terms (SearchOptions.tokenize) it has: BM25's document length. */
  readonly length: number
  /** How many of its words fold to `term`. */
  readonly count: (term: string) => number
}

/** Where ranking reads each candidate: its place, its session, its terms. */
export interface ParagraphSource {
  readonly locate: (id: number) => ParagraphLocation | undefined
  readonly sessionOf: (slug: string) => number | undefined
  /** The paragraph with id `id`, or undefined when the snapshot has none there. */
  readonly terms: (id: number, location: ParagraphLocation) => ParagraphTerms | undefined
}

/** The candidates `found` ranked by BM25, the first `maxSearchResults` in `session` (if any). */
export const rankParagraphs = (
  found: ReadonlyArray<number>,
  terms: ReadonlyArray<string>,
  session: number | undefined,
  corpus: ParagraphCorpus,
  source: ParagraphSource
): Array<RankedParagraph> => {
  const ranked: Array<RankedParagraph> = []
  for (const id of found) {
    const location = source.locate(id)
    if (location === undefined || (session !== undefined && source.sessionOf(location.slug) !== session))
      continue
    const paragraph = source.terms(id, location)
    if (paragraph === undefined) continue
    let relevance = 0
    for (const term of terms) {
      const tf = paragraph.count(term)
      if (tf > 0) {
        relevance += bm25(
          tf,
          paragraph.length,
          corpus.averageTerms,
          inverseFrequency(corpus.paragraphs, corpus.documentFrequency(term) ?? 1)
        )
      }
    }
    ranked.push({
      slug: location.slug,
      paragraphIndex: location.paragraphIndex,
      relevance: roundRelevance(relevance)
    })
    if (ranked.length >= maxSearchResults) break
  }
  return ranked.sort((a, b) => b.relevance - a.relevance)
}
