// The words of a query as search terms, with no dependency beyond the word folding: shared by the
// service (QueryTerms.ts) and the snapshot reader, which runs in browsers.
import { tokenize } from "../SearchOptions.js"

/** The query's search terms, folded as the indexes were built, each once, in order. */
export const searchTerms = (q: string): Array<string> => [...new Set(tokenize(q))]

/** Why a query with no search term is refused. */
export const noSearchTerms = (parameter: string) =>
  `${parameter} must hold at least one word of two or more letters or digits`
