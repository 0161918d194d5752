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

/** The ids found by every term, in the order the first term found them; none without terms. */
export const candidatesOfEvery = (
  terms: ReadonlyArray<string>,
  find: (term: string) => FieldResults
): ReadonlySet<number> => {
  let candidates: Set<number> | undefined
  for (const term of terms) {
    const found = new Set(mergedIds(find(term)))
    candidates = candidates === undefined ? found : new Set([...candidates].filter((id) => found.has(id)))
  }
  return candidates ?? new Set()
}
