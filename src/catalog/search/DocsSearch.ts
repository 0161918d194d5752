// Documentation search (the docs MCP server's `search_docs`): the pages every word finds, ranked by
// BM25 over the pages' words, each with a snippet of its first matching paragraph.
import * as Either from "effect/Either"
import type { BadRequest } from "../../http/ApiError.js"
import type { CatalogService } from "../Catalog.js"
import type { DocPage } from "../domain/DocPage.js"
import { wordSpans } from "../SearchOptions.js"
import { bm25, inverseFrequency, roundRelevance } from "./Bm25.js"
import { candidatesOfEvery } from "./Candidates.js"
import { queryTerms } from "./QueryTerms.js"
import { snippetOf } from "./Snippet.js"
import { countTerms, termFrequency } from "./TermCounts.js"

export interface DocHit {
  readonly page: DocPage
  readonly relevance: number
  readonly snippet: string
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
      const termSet = new Set(terms)
      return [...candidates]
        .map((id) => {
          const { counts, length } = docTerms[id] ?? { counts: new Map<string, number>(), length: 0 }
          const containing = (term: string) =>
            docTerms.filter((d) => termFrequency(d.counts, term) > 0).length
          const relevance = terms.reduce(
            (sum, term) =>
              sum +
              bm25(
                termFrequency(counts, term),
                length,
                docAverage,
                inverseFrequency(docTerms.length, containing(term))
              ),
            0
          )
          const page = catalog.docs[id] as DocPage
          const paragraph = page.text
            .split(/\n\s*\n/)
            .find((block) => wordSpans(block).some((span) => termSet.has(span.term)))
          return {
            page,
            relevance: roundRelevance(relevance),
            snippet: snippetOf(paragraph ?? page.text, termSet).snippet
          }
        })
        .sort((a, b) => b.relevance - a.relevance)
        .slice(0, limit)
    })
}
