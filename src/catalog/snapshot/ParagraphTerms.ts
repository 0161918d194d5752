// Every transcript paragraph's search terms as numbers, in one array by paragraph id: ranking counts
// the query's terms in a thousand candidate paragraphs per query, and reading a few dozen integers
// per paragraph costs a small part of lowercasing and searching its text (which was most of an
// uncached transcript search on the corpus). One array rather than one per transcript, because the
// candidates are scattered over the catalog: the fewer places a paragraph is read from, the fewer
// cache misses. The terms are SearchOptions.tokenize's, the very terms the paragraph statistics
// counted (`paragraphTerms`, BM25's lengths), which place each paragraph's terms in the array before
// any is read. A transcript's terms are filled when its record is read (TranscriptRecords.ts).
// The most frequent terms also get a table of their count in every paragraph, written as the
// paragraphs are filled: the candidates of a query of frequent words are a thousand paragraphs
// scattered over the catalog, and finding a term among each one's entries was a cache miss or more
// each time, about half of an uncached search's ranking on the corpus; half a byte in a table of
// 111 KB (the corpus' 222,436 paragraphs) stays in the processor's caches.
import { tokenize } from "../SearchOptions.js"

export interface ParagraphTerms {
  /** The term's number, undefined when no paragraph read so far has it. */
  readonly termId: (term: string) => number | undefined
  /** Whether paragraph `id`'s terms are filled. */
  readonly filled: (id: number) => boolean
  /**
   * How many search terms paragraph `id` has (its length in the paragraph statistics, BM25's document
   * length), read beside where its terms start rather than from the statistics' own list: one cache
   * miss fewer per candidate.
   */
  readonly length: (id: number) => number
  /** Fills the terms of the paragraphs from `firstId` on, one text each. */
  readonly fill: (firstId: number, texts: ReadonlyArray<string>) => void
  /**
   * How many of paragraph `id`'s terms are each of the terms numbered `termIds` (none for an unknown
   * term), written into `into` when given (ranking reuses one array for all its candidates).
   */
  readonly counts: (id: number, termIds: ReadonlyArray<number | undefined>, into?: Uint32Array) => Uint32Array
}

/** Bits of a packed entry that hold the term's count in its paragraph; the rest hold its number. */
const countBits = 8
const countMask = (1 << countBits) - 1
/** Term numbers that fit above the count. */
const maxTerms = 2 ** (32 - countBits)

/** A count table's value for a count it cannot hold (the entries tell it): a count is half a byte. */
const countTableMaximum = 15

/**
 * Room for the terms of paragraphs whose term counts, by paragraph id, are `lengths`; the terms
 * `tabled` answers true for get a table of their counts (half a byte a paragraph).
 */
export const makeParagraphTerms = (
  lengths: ReadonlyArray<number>,
  tabled: (term: string) => boolean = () => false
): ParagraphTerms => {
  const starts = new Uint32Array(lengths.length + 1)
  let longest = 0
  for (let id = 0; id < lengths.length; id++) {
    const length = lengths[id] as number
    starts[id + 1] = (starts[id] as number) + length
    if (length > longest) longest = length
  }
  // Each paragraph keeps its distinct terms from its start, in ascending order of their numbers,
  // each packed in one integer with how often it occurs (the count in the low bits; a count too
  // large for them is kept in `largeCounts` by position). A count is then a search among a
  // paragraph's distinct terms, most often within its first cache line, rather than a walk over all
  // its words: the paragraphs that hold every word of a query are the long ones (a few hundred
  // words), where the walk cost about 1.5 µs a candidate and most of an uncached query's time.
  const entries = new Uint32Array(starts[lengths.length] as number)
  const distinct = new Uint32Array(lengths.length)
  const largeCounts = new Map<number, number>()
  const isFilled = new Uint8Array(lengths.length)
  const vocabulary = new Map<string, number>()
  // By term number: the count table of each tabled term, filled with the paragraphs' entries.
  const countTables: Array<Uint8Array | undefined> = []
  const intern = (term: string) => {
    let id = vocabulary.get(term)
    if (id === undefined) {
      id = vocabulary.size
      if (id >= maxTerms) throw new Error(`the transcripts have more than ${maxTerms} distinct search terms`)
      vocabulary.set(term, id)
      countTables[id] = tabled(term) ? new Uint8Array((lengths.length >>> 1) + 1) : undefined
    }
    return id
  }
  let sorting = new Uint32Array(Math.max(longest, 1))
  const put = (id: number, position: number, term: number, count: number) => {
    entries[position] = ((term << countBits) >>> 0) + Math.min(count, countMask)
    if (count >= countMask) largeCounts.set(position, count)
    const table = countTables[term]
    if (table !== undefined) {
      const shift = (id & 1) << 2
      table[id >>> 1] =
        ((table[id >>> 1] as number) & ~(countTableMaximum << shift)) |
        (Math.min(count, countTableMaximum) << shift)
    }
  }
  return {
    termId: (term) => vocabulary.get(term),
    filled: (id) => isFilled[id] === 1,
    length: (id) => (starts[id + 1] ?? 0) - (starts[id] ?? 0),
    fill: (firstId, texts) => {
      texts.forEach((text, i) => {
        const id = firstId + i
        const terms = tokenize(text)
        const start = starts[id]
        if (start === undefined || id >= lengths.length || terms.length !== lengths[id])
          throw new Error(
            `paragraph ${id} has ${terms.length} search terms where the search data counts ${lengths[id]}`
          )
        if (sorting.length < terms.length) sorting = new Uint32Array(terms.length)
        for (let t = 0; t < terms.length; t++) sorting[t] = intern(terms[t] as string)
        const sorted = sorting.subarray(0, terms.length).sort()
        let end = start
        let count = 0
        for (let t = 0; t < sorted.length; t++) {
          count++
          if (t + 1 === sorted.length || sorted[t + 1] !== sorted[t]) {
            put(id, end++, sorted[t] as number, count)
            count = 0
          }
        }
        distinct[id] = end - start
        isFilled[id] = 1
      })
    },
    counts: (id, termIds, into) => {
      const counts = into ?? new Uint32Array(termIds.length)
      const first = starts[id] ?? 0
      let last = -1
      for (let t = 0; t < termIds.length; t++) {
        counts[t] = 0
        const term = termIds[t]
        if (term === undefined) continue
        const table = countTables[term]
        if (table !== undefined) {
          const tabulated = ((table[id >>> 1] as number) >>> ((id & 1) << 2)) & countTableMaximum
          if (tabulated < countTableMaximum) {
            counts[t] = tabulated
            continue
          }
        }
        if (last === -1) last = first + (distinct[id] ?? 0)
        // Frequent words have the smallest numbers (numbered as first met): galloping from the
        // paragraph's start finds them in its first entries, a binary search finds the rest.
        let low = first
        let step = 1
        let high = first
        while (high < last && (entries[high] as number) >>> countBits < term) {
          low = high + 1
          high = first + step
          step *= 2
        }
        if (high > last) high = last
        while (low < high) {
          const mid = (low + high) >>> 1
          if ((entries[mid] as number) >>> countBits < term) low = mid + 1
          else high = mid
        }
        const entry = entries[low] as number
        if (low < last && entry >>> countBits === term) {
          const count = entry & countMask
          counts[t] = count === countMask ? (largeCounts.get(low) as number) : count
        }
      }
      return counts
    }
  }
}
