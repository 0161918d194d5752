// Term frequencies in counted fields (TermCounts.termFrequency) with the words as numbers. Episode
// ranking asks the frequency of each query term in every field of every candidate: with the words
// as strings, each ask was a Map lookup and, for a word the field lacks, a binary search of string
// comparisons, about a sixth of an uncached episode search's CPU on the corpus (bench/HISTORY.md,
// issue 29). Here every field's words are numbered in one vocabulary sorted as TermCounts sorts
// (code units), so the words starting with a term are one range of numbers, found once a query;
// each field keeps its words' numbers in ascending order with their counts, and a frequency is a
// binary search of integers there. The same value as termFrequency for every term and field: the
// test in test/catalog/search-options.test.ts holds them equal.
import type { TermCounts } from "./TermCounts.js"

/** The frequency of a query's `t`-th term in field `f` of the `i`-th counted text (0 beyond them). */
export type QueryFrequencies = (i: number, f: number, t: number) => number

/** Numbered counts of `fields[i][f]`; `frequencies(terms)` answers for one query's terms. */
export const numberFieldTerms = (
  fields: ReadonlyArray<ReadonlyArray<TermCounts>>,
  fieldCount: number
): { readonly frequencies: (terms: ReadonlyArray<string>) => QueryFrequencies } => {
  const words = new Set<string>()
  for (const counted of fields) for (const field of counted) for (const word of field.sorted) words.add(word)
  const vocabulary = [...words].sort()
  const numberOf = new Map(vocabulary.map((word, n) => [word, n]))
  // Field f of text i holds entries starts[i * fieldCount + f] up to the next start.
  const starts = new Uint32Array(fields.length * fieldCount + 1)
  let total = 0
  fields.forEach((counted, i) => {
    for (let f = 0; f < fieldCount; f++) {
      starts[i * fieldCount + f] = total
      total += counted[f]?.sorted.length ?? 0
    }
  })
  starts[fields.length * fieldCount] = total
  const numbers = new Uint32Array(total)
  const counts = new Uint32Array(total)
  fields.forEach((counted, i) => {
    for (let f = 0; f < fieldCount; f++) {
      const field = counted[f]
      if (field === undefined) continue
      let at = starts[i * fieldCount + f] as number
      // `sorted` is in the vocabulary's order, so the numbers ascend.
      for (const word of field.sorted) {
        numbers[at] = numberOf.get(word) as number
        counts[at] = field.counts.get(word) as number
        at++
      }
    }
  })

  /** The first position in the sorted vocabulary whose word is not below `term`. */
  const lowerBound = (term: string) => {
    let low = 0
    let high = vocabulary.length
    while (low < high) {
      const mid = (low + high) >> 1
      if ((vocabulary[mid] as string) < term) low = mid + 1
      else high = mid
    }
    return low
  }

  return {
    frequencies: (terms) => {
      // Per term: the numbers of the words starting with it, [first, end), and whether the first
      // is the term itself (the term sorts before every longer word starting with it).
      const first = new Uint32Array(terms.length)
      const end = new Uint32Array(terms.length)
      const whole = new Uint8Array(terms.length)
      terms.forEach((term, t) => {
        const low = lowerBound(term)
        let high = low
        while (high < vocabulary.length && (vocabulary[high] as string).startsWith(term)) high++
        first[t] = low
        end[t] = high
        whole[t] = vocabulary[low] === term ? 1 : 0
      })
      return (i, f, t) => {
        if (i < 0 || i >= fields.length || f < 0 || f >= fieldCount) return 0
        const from = first[t] as number
        const to = end[t] as number
        let low = starts[i * fieldCount + f] as number
        let high = starts[i * fieldCount + f + 1] as number
        const last = high
        while (low < high) {
          const mid = (low + high) >>> 1
          if ((numbers[mid] as number) < from) low = mid + 1
          else high = mid
        }
        // The word itself counts whole; only without it do the longer words count, half each.
        if (whole[t] === 1 && low < last && numbers[low] === from) return counts[low] as number
        let prefixed = 0
        for (let at = low; at < last && (numbers[at] as number) < to; at++) prefixed += counts[at] as number
        return prefixed / 2
      }
    }
  }
}
