// Where a paragraph of the transcript index is: its ids run through the transcripts in the order
// the search data lists them, so an id is a transcript (found by binary search over each
// transcript's first id) and a paragraph index within it.

export interface ParagraphLocation {
  readonly slug: string
  readonly paragraphIndex: number
}

/** Transcripts in paragraph-id order, `[slug, paragraphs, …]` (the search data's or the static search's list). */
export interface TranscriptOrder {
  readonly transcripts: ReadonlyArray<readonly [string, number, ...Array<unknown>]>
}

export const makeParagraphLocator = (
  searchData: TranscriptOrder
): ((id: number) => ParagraphLocation | undefined) => {
  const transcriptOrder = searchData.transcripts
  const firstParagraphId: Array<number> = []
  let next = 0
  for (const [, count] of transcriptOrder) {
    firstParagraphId.push(next)
    next += count
  }
  /** The transcript (position in `transcriptOrder`) that paragraph `id` belongs to. */
  const transcriptOf = (id: number): number => {
    let low = 0
    let high = firstParagraphId.length - 1
    while (low < high) {
      const mid = (low + high + 1) >> 1
      if ((firstParagraphId[mid] ?? 0) <= id) low = mid
      else high = mid - 1
    }
    return low
  }
  return (id) => {
    const position = transcriptOf(id)
    const slug = transcriptOrder[position]?.[0]
    return slug === undefined ? undefined : { slug, paragraphIndex: id - (firstParagraphId[position] ?? 0) }
  }
}
