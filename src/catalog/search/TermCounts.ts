// How often each search term occurs in a text, for ranking fields and pages that are counted once,
// when the search is made, rather than per query.
import { tokenize } from "../SearchOptions.js"

export interface TermCounts {
  readonly counts: Map<string, number>
  /** How many terms the text has. */
  readonly length: number
  /** The distinct terms in code-unit order: the words starting with a term are a run of them. */
  readonly sorted: ReadonlyArray<string>
}

export const countTerms = (text: string): TermCounts => {
  const counts = new Map<string, number>()
  const terms = tokenize(text)
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1)
  return { counts, length: terms.length, sorted: [...counts.keys()].sort() }
}

/**
 * Occurrences of `term`; words that only start with it count half (the indexes match prefixes).
 * Episode ranking, which asks this of every field of every candidate, reads the same value from the
 * words numbered once (FieldTermNumbers.ts).
 */
export const termFrequency = (counts: Map<string, number>, term: string) => {
  const exact = counts.get(term)
  if (exact !== undefined) return exact
  let prefixed = 0
  for (const [word, count] of counts) if (word.startsWith(term)) prefixed += count
  return prefixed / 2
}
