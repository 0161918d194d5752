// Every transcript paragraph's search terms as numbers, in one array by paragraph id: ranking counts
// the query's terms in a thousand candidate paragraphs per query, and reading a few dozen integers
// per paragraph costs a small part of lowercasing and searching its text (which was most of an
// uncached transcript search on the corpus). One array rather than one per transcript, because the
// candidates are scattered over the catalog: the fewer places a paragraph is read from, the fewer
// cache misses. The terms are SearchOptions.tokenize's, the very terms the paragraph statistics
// counted (`paragraphTerms`, BM25's lengths), which place each paragraph's terms in the array before
// any is read. A transcript's terms are filled when its record is read (TranscriptRecords.ts).
import { tokenize } from "../SearchOptions.js"

export interface ParagraphTerms {
  /** The term's number, undefined when no paragraph read so far has it. */
  readonly termId: (term: string) => number | undefined
  /** Whether paragraph `id`'s terms are filled. */
  readonly filled: (id: number) => boolean
  /** Fills the terms of the paragraphs from `firstId` on, one text each. */
  readonly fill: (firstId: number, texts: ReadonlyArray<string>) => void
  /** How many of paragraph `id`'s terms are each of the terms numbered `termIds` (none for an unknown term). */
  readonly counts: (id: number, termIds: ReadonlyArray<number | undefined>) => Uint32Array
}

/** Room for the terms of paragraphs whose term counts, by paragraph id, are `lengths`. */
export const makeParagraphTerms = (lengths: ReadonlyArray<number>): ParagraphTerms => {
  const starts = new Uint32Array(lengths.length + 1)
  for (let id = 0; id < lengths.length; id++)
    starts[id + 1] = (starts[id] as number) + (lengths[id] as number)
  const ids = new Uint32Array(starts[lengths.length] as number)
  const isFilled = new Uint8Array(lengths.length)
  const vocabulary = new Map<string, number>()
  const intern = (term: string) => {
    let id = vocabulary.get(term)
    if (id === undefined) {
      id = vocabulary.size
      vocabulary.set(term, id)
    }
    return id
  }
  return {
    termId: (term) => vocabulary.get(term),
    filled: (id) => isFilled[id] === 1,
    fill: (firstId, texts) => {
      texts.forEach((text, i) => {
        const id = firstId + i
        const terms = tokenize(text)
        const start = starts[id]
        if (start === undefined || id >= lengths.length || terms.length !== lengths[id])
          throw new Error(
            `paragraph ${id} has ${terms.length} search terms where the search data counts ${lengths[id]}`
          )
        for (let t = 0; t < terms.length; t++) ids[start + t] = intern(terms[t] as string)
        isFilled[id] = 1
      })
    },
    counts: (id, termIds) => {
      const counts = new Uint32Array(termIds.length)
      const end = starts[id + 1] ?? 0
      for (let i = starts[id] ?? end; i < end; i++) {
        const term = ids[i]
        for (let t = 0; t < termIds.length; t++)
          if (termIds[t] === term) counts[t] = (counts[t] as number) + 1
      }
      return counts
    }
  }
}
