// Documentation search (the docs MCP server's `search_docs`): the pages every word finds, ranked by
// BM25 over the pages' words, each with a snippet of its passage that matches the query best.
import * as Either from "effect/Either"
import type { BadRequest } from "../../http/ApiError.js"
import type { CatalogService } from "../Catalog.js"
import type { DocPage } from "../domain/DocPage.js"
import { wordSpans } from "../SearchOptions.js"
import { bm25, inverseFrequency, roundRelevance } from "./Bm25.js"
import { candidatesOfEvery } from "./Candidates.js"
import { queryTerms } from "./QueryTerms.js"
import { snippetAround, snippetReach } from "./Snippet.js"
import { countTerms, termFrequency } from "./TermCounts.js"

export interface DocHit {
  readonly page: DocPage
  readonly relevance: number
  readonly snippet: string
}

/** A word of a page that matches a query term: in full, or (as the index matches) by its start. */
interface TermMatch {
  readonly term: string
  readonly start: number
  readonly end: number
  /** 1 for the whole word, ½ for a longer word that starts with the term, as ranking counts it. */
  readonly weight: number
}

const matchesIn = (text: string, terms: ReadonlyArray<string>): Array<TermMatch> => {
  const matches: Array<TermMatch> = []
  for (const span of wordSpans(text)) {
    const exact = terms.find((term) => span.term === term)
    const prefix = exact ?? terms.find((term) => span.term.startsWith(term))
    if (prefix !== undefined) matches.push({ ...span, term: prefix, weight: exact === undefined ? 0.5 : 1 })
  }
  return matches
}

/**
 * How much of the query some matches hold: each distinct term once, by its inverse document
 * frequency, so that a passage with the rare words of the query beats one that only shares a
 * common short word with it ("if" of If-None-Match).
 */
const coverage = (matches: ReadonlyArray<TermMatch>, idf: ReadonlyMap<string, number>): number => {
  const best = new Map<string, number>()
  for (const match of matches) best.set(match.term, Math.max(best.get(match.term) ?? 0, match.weight))
  let total = 0
  for (const [term, weight] of best) total += weight * (idf.get(term) ?? 0)
  return total
}

/** The start of the window of `matches` that holds most of the query (the earliest of equals), and how much. */
const bestWindow = (matches: ReadonlyArray<TermMatch>, idf: ReadonlyMap<string, number>) => {
  let anchor = matches[0]?.start ?? 0
  let score = -1
  for (const match of matches) {
    const reached = matches.filter((m) => m.start >= match.start && m.end <= match.start + snippetReach)
    const covered = coverage(reached, idf)
    if (covered > score) {
      anchor = match.start
      score = covered
    }
  }
  return { anchor, score }
}

/**
 * The snippet of a page for a query: the window of a paragraph that holds most of the query (the
 * words a reader searched for, in view together), then the paragraph that holds most of it, then
 * the earliest.
 */
const passageOf = (page: DocPage, terms: ReadonlyArray<string>, idf: ReadonlyMap<string, number>) => {
  let best:
    | { text: string; matches: Array<TermMatch>; anchor: number; window: number; whole: number }
    | undefined
  for (const text of page.text.split(/\n\s*\n/)) {
    const matches = matchesIn(text, terms)
    if (matches.length === 0) continue
    const { anchor, score: window } = bestWindow(matches, idf)
    const whole = coverage(matches, idf)
    if (best === undefined || window > best.window || (window === best.window && whole > best.whole)) {
      best = { text, matches, anchor, window, whole }
    }
  }
  if (best === undefined) return snippetAround(page.text, [], 0).snippet
  return snippetAround(best.text, best.matches, best.anchor).snippet
}

export const makeDocsSearch = (
  catalog: CatalogService
): ((q: string, limit: number) => Either.Either<ReadonlyArray<DocHit>, BadRequest>) => {
  const docTerms = catalog.docs.map((page) => countTerms(`${page.title} ${page.text}`))
  const docAverage = docTerms.reduce((sum, terms) => sum + terms.length, 0) / Math.max(docTerms.length, 1)
  return (q, limit) =>
    Either.map(queryTerms(q, "query"), (terms) => {
      const candidates = candidatesOfEvery(terms, (term) =>
        catalog.indexes.docs.search(term, { limit: catalog.docs.length })
      )
      const idf = new Map(
        terms.map((term) => [
          term,
          inverseFrequency(docTerms.length, docTerms.filter((d) => termFrequency(d.counts, term) > 0).length)
        ])
      )
      return [...candidates]
        .map((id) => {
          const { counts, length } = docTerms[id] ?? { counts: new Map<string, number>(), length: 0 }
          const relevance = terms.reduce(
            (sum, term) => sum + bm25(termFrequency(counts, term), length, docAverage, idf.get(term) ?? 0),
            0
          )
          const page = catalog.docs[id] as DocPage
          return { page, relevance: roundRelevance(relevance), snippet: passageOf(page, terms, idf) }
        })
        .sort((a, b) => b.relevance - a.relevance)
        .slice(0, limit)
    })
}
