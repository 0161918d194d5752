// How transcript paragraphs are found and ranked, as one piece of code for every place that searches
// them: the service (TranscriptSearch.ts, over the whole index in memory) and the snapshot reader
// (packages/snapshot-reader, over the parts of the index a query needs). The paragraphs that hold
// every word are found as FlexSearch's `search` finds them, in its order, at most `candidateLimit`
// (SlotIntersection.ts walks the index's slots as FlexSearch does, a hundred times faster); BM25
// over the paragraph statistics ranks the first `maxSearchResults` of those in the session asked for.
import { maxSearchResults } from "../CatalogLimits.js"
import { tokenize } from "../SearchOptions.js"
import { bm25, inverseFrequency, thousandths } from "./Bm25.js"
import type { ParagraphLocation } from "./ParagraphLocator.js"
import { intersectSlots, type SlotTables } from "./SlotIntersection.js"
import type { Slots } from "./StaticSearchLayout.js"

/** A ranked paragraph: where it is and its relevance. */
export interface RankedParagraph extends ParagraphLocation {
  readonly relevance: number
}

/** With a session filter, more candidates are read so that enough remain after filtering. */
export const candidateLimit = (session: number | undefined) =>
  session === undefined ? maxSearchResults : 20 * maxSearchResults

/**
 * The paragraphs that hold every term, as FlexSearch's `search` of the terms' text answers: that text
 * tokenised again (FlexSearch's encoder is `tokenize`), each term once, its slots read from `slotsOf`
 * (the index's map entry of the term, undefined when no paragraph has it), with the slot tables of
 * its frequent terms when given (SlotIntersection.ts).
 */
export const findParagraphs = (
  slotsOf: (term: string) => Slots | undefined,
  terms: ReadonlyArray<string>,
  session: number | undefined,
  tables?: SlotTables
): Array<number> => {
  const queried = [...new Set(tokenize(terms.join(" ")))]
  // Document.search merges its fields' ids, each once. The walk meets each id once already: a
  // paragraph is in a term's slots once (FlexSearch adds a paragraph's term once), and with several
  // terms an id is taken only when its count reaches their number.
  return intersectSlots(queried.map(slotsOf), candidateLimit(session), tables)
}

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
  /** How many of its words fold to each term of the query, in the query's order. */
  readonly counts: ArrayLike<number>
}

/** Where ranking reads each candidate: its place, its session, its terms. */
export interface ParagraphSource {
  /** Where paragraph `id` is; asked of every candidate only with a session filter, else of a page's. */
  readonly locate: (id: number) => ParagraphLocation | undefined
  readonly sessionOf: (slug: string) => number | undefined
  /**
   * The paragraph with id `id` and its counts of `terms`, or undefined when the snapshot has none
   * there. Ranking reads the answer before it asks again, so a source may answer every call in the
   * same object.
   */
  readonly terms: (id: number, terms: ReadonlyArray<string>) => ParagraphTerms | undefined
}

/**
 * Ranked paragraphs kept as numbers, best first: their ids and relevances in two arrays of numbers,
 * turned into RankedParagraph objects only for the page asked for. A ranking is kept for the later
 * pages of its query; kept as a thousand small objects, the rankings of uncached queries were most
 * of what the server promoted to the old generation, and the collections that followed (a 165 ms
 * pause on the corpus) were the tail of its latencies. Plain arrays rather than typed ones: a typed
 * array's contents are memory outside V8's heap, which only a full collection frees once the array
 * has outlived the young generation, as a kept ranking does; V8 starts one whenever 64 MB more of
 * it is held, and at 12 KB a query that was every few seconds of uncached searches, each a pause
 * of 10–20 ms after ~150 ms of marking on the other core (bench/HISTORY.md).
 */
export class RankedParagraphs {
  constructor(
    private readonly ids: ReadonlyArray<number>,
    private readonly relevances: ReadonlyArray<number>,
    private readonly locate: (id: number) => ParagraphLocation | undefined
  ) {}

  get length(): number {
    return this.ids.length
  }

  /** The ranked paragraphs from `start` up to (not including) `end`, as RankedParagraph objects. */
  slice(start: number, end: number): Array<RankedParagraph> {
    const page: Array<RankedParagraph> = []
    for (let i = Math.max(start, 0); i < Math.min(end, this.ids.length); i++) {
      const location = this.locate(this.ids[i] as number) as ParagraphLocation
      page.push({
        slug: location.slug,
        paragraphIndex: location.paragraphIndex,
        relevance: this.relevances[i] as number
      })
    }
    return page
  }
}

/** Candidate positions below this fit beside a relevance in one sort key (candidateLimit's are far below). */
const positionRange = 2 ** 16

// The candidates kept and their sort keys, reused by every ranking (it runs to its end before the
// next begins): a fresh pair of typed arrays per query, each with its own backing store, cost about
// 5 % of an uncached search on the corpus.
const kept = new Uint32Array(maxSearchResults)
const keys = new Float64Array(maxSearchResults)

/**
 * The candidates `found` scored by BM25, the first `maxSearchResults` in `session` (if any), best
 * first; equal relevances keep the order they were found in.
 */
export const scoreParagraphs = (
  found: ReadonlyArray<number>,
  terms: ReadonlyArray<string>,
  session: number | undefined,
  corpus: ParagraphCorpus,
  source: ParagraphSource
): RankedParagraphs => {
  // A term's weight is the same in every paragraph: computed once a query.
  const idf = terms.map((term) => inverseFrequency(corpus.paragraphs, corpus.documentFrequency(term) ?? 1))
  // One number per candidate sorts it: its relevance in thousandths (as answers round it), negated
  // so that the best comes first, then its position among the kept, so that ties keep their order.
  // A native sort of numbers, where sorting objects with a comparator cost a fifth of the ranking.
  let count = 0
  for (const id of found) {
    if (session !== undefined) {
      // Without a session filter no candidate is located: a page locates only its own.
      const location = source.locate(id)
      if (location === undefined || source.sessionOf(location.slug) !== session) continue
    }
    const paragraph = source.terms(id, terms)
    if (paragraph === undefined) continue
    let relevance = 0
    for (let t = 0; t < terms.length; t++) {
      const tf = paragraph.counts[t] as number
      if (tf > 0) relevance += bm25(tf, paragraph.length, corpus.averageTerms, idf[t] as number)
    }
    kept[count] = id
    keys[count] = -thousandths(relevance) * positionRange + count
    count++
    if (count >= maxSearchResults) break
  }
  const order = keys.subarray(0, count).sort()
  const ids: Array<number> = []
  const relevances: Array<number> = []
  for (let i = 0; i < count; i++) {
    const key = order[i] as number
    const position = ((key % positionRange) + positionRange) % positionRange
    ids.push(kept[position] as number)
    relevances.push((position - key) / positionRange / 1000)
  }
  return new RankedParagraphs(ids, relevances, source.locate)
}

/** The candidates `found` ranked by BM25 (scoreParagraphs), as RankedParagraph objects. */
export const rankParagraphs = (
  found: ReadonlyArray<number>,
  terms: ReadonlyArray<string>,
  session: number | undefined,
  corpus: ParagraphCorpus,
  source: ParagraphSource
): Array<RankedParagraph> => {
  const ranked = scoreParagraphs(found, terms, session, corpus, source)
  return ranked.slice(0, ranked.length)
}
