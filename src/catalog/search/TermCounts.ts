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
 * With `sorted` (TermCounts.sorted), the words starting with it are found by binary search instead
 * of by reading every word: episode search asks this of every field of up to every episode, and a
 * word absent from long show notes cost a walk over all of their words.
 */
export const termFrequency = (counts: Map<string, number>, term: string, sorted?: ReadonlyArray<string>) => {
  const exact = counts.get(term)
  if (exact !== undefined) return exact
  let prefixed = 0
  if (sorted === undefined) {
    for (const [word, count] of counts) if (word.startsWith(term)) prefixed += count
    return prefixed / 2
  }
  let low = 0
  let high = sorted.length
  while (low < high) {
    const mid = (low + high) >> 1
    if ((sorted[mid] as string) < term) low = mid + 1
    else high = mid
  }
  for (let i = low; i < sorted.length && (sorted[i] as string).startsWith(term); i++)
    prefixed += counts.get(sorted[i] as string) ?? 0
  return prefixed / 2
}
