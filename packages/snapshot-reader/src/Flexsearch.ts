// Map entries of the static search files imported into an empty FlexSearch Document made with the
// shared options (src/catalog/SearchOptions.ts): FlexSearch's `search` reads only the entries of the
// query's terms, so over these it answers as the whole index does.
import type { Slots } from "../../../src/catalog/search/StaticSearchLayout.js"

interface Importable {
  readonly import: (key: string, data: string) => void
}

/**
 * Imports `[term, slots]` entries into a field's map. FlexSearch's import parses text and takes
 * parsed entries as they are (serialize.js: `json_to_map`); its types name only the text, and
 * stringifying what was just parsed would only cost time.
 */
export const importEntries = (
  index: Importable,
  field: string,
  entries: ReadonlyArray<readonly [string, Slots]>
): void => {
  if (entries.length === 0) return
  const importParsed = index.import as unknown as (key: string, data: ReadonlyArray<unknown>) => void
  importParsed.call(index, `${field}.1.map`, entries)
}
