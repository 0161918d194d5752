// The documents a FlexSearch Document index finds, as ids: merged over the fields it searched, and
// for a query of several words, those that every word finds (FlexSearch is asked word by word).

/** What an index finds for one query, as FlexSearch's Document search returns it: ids per field. */
export type FieldResults = ReadonlyArray<{ readonly result: ReadonlyArray<unknown> }>

/** Ids in the order FlexSearch gave them, merged over the fields of a Document result. */
export const mergedIds = (results: FieldResults): Array<number> => {
  const seen = new Set<number>()
  for (const fieldResult of results) for (const id of fieldResult.result) seen.add(id as number)
  return [...seen]
}

/**
 * Which word of the current query last found each id, by id (the ids are the indexes' numbers: an
 * episode's or a page's position), grown to the largest id met. Sets of the ids each word found,
 * then their intersections, were a fifth of an uncached episode search on the corpus; a mark per id
 * says the same with one read and one write. A mark is a running number, never reset between
 * queries, so nothing is cleared.
 */
let marks = new Uint32Array(0)
let mark = 0

const nextMark = () => {
  if (mark === 0xffffffff) {
    marks.fill(0)
    mark = 0
  }
  return ++mark
}

/** The ids found by every term, in the order the first term found them; none without terms. */
export const candidatesOfEvery = (
  terms: ReadonlyArray<string>,
  find: (term: string) => FieldResults
): ReadonlyArray<number> => {
  const order: Array<number> = []
  let previous = 0
  terms.forEach((term, t) => {
    const current = nextMark()
    for (const fieldResult of find(term)) {
      for (const found of fieldResult.result) {
        const id = found as number
        if (id >= marks.length) {
          const larger = new Uint32Array(Math.max(id + 1, marks.length * 2, 1024))
          larger.set(marks)
          marks = larger
        }
        // The first word takes every id once, in its order; each later one keeps those the word
        // before it kept (an id in several fields is moved on by the first of them).
        if (t === 0) {
          if (marks[id] !== current) {
            marks[id] = current
            order.push(id)
          }
        } else if (marks[id] === previous) marks[id] = current
      }
    }
    previous = current
  })
  return order.filter((id) => marks[id] === previous)
}
