// The bytes of an episode list or search page as REST answers it, assembled from each episode's
// JSON prepared once. A page's JSON (PageJson.ts) is JSON.stringify of Episode records that differ
// from the catalog's only in their search fields (relevance, matchedFields): stringifying the same
// records again for every new query, then encoding the text as UTF-8, was about a quarter of an
// uncached episode search's CPU on the corpus, and a third of a cached ranking's next page
// (bench/HISTORY.md, issue 29). So each episode's JSON is written once, as UTF-8 bytes split around
// its search fields, and a page is those bytes with the fields' values between them. test/catalog/page-json.test.ts holds the bytes equal to the
// schema encoding's JSON for every list and search page of the demo snapshot.
import type { Episode } from "../domain/Episode.js"
import type { RankedEpisode } from "../search/EpisodeRanking.js"
import type { Page } from "../search/Paginate.js"

/** An episode's JSON before and after its search fields, or undefined when it cannot be split. */
interface SplitJson {
  readonly before: Buffer
  readonly after: Buffer
}

/**
 * Where the search fields sit in a listed episode's JSON. Inside a JSON string a quote is always
 * escaped, so this text, with its bare quotes, can only be the fields themselves.
 */
const listedSearchFields = '"relevance":null,"matchedFields":[]'

const ascii = (text: string) => Buffer.from(text, "latin1")
const pageStart = ascii('{"data":[')
const comma = ascii(",")

/** Writes pages of the catalog's `episodes` (by their index in it) as the REST page JSON's bytes. */
export const makeEpisodePageBytes = (
  episodes: ReadonlyArray<Episode>,
  render: (ranked: RankedEpisode) => Episode
): ((page: Page<RankedEpisode>) => Buffer) => {
  // Filled on an episode's first page: the catalog's whole list takes a moment to stringify.
  const split = new Array<SplitJson | null | undefined>(episodes.length)
  const splitOf = (index: number): SplitJson | null => {
    const known = split[index]
    if (known !== undefined) return known
    const episode = episodes[index]
    const json = episode === undefined ? "" : JSON.stringify(episode)
    const at = json.indexOf(listedSearchFields)
    const made =
      at === -1 || json.indexOf(listedSearchFields, at + 1) !== -1
        ? null
        : {
            before: Buffer.from(json.slice(0, at), "utf8"),
            after: Buffer.from(json.slice(at + listedSearchFields.length), "utf8")
          }
    split[index] = made
    return made
  }
  return (page) => {
    const parts: Array<Buffer> = [pageStart]
    page.data.forEach((ranked, i) => {
      if (i > 0) parts.push(comma)
      const prepared = splitOf(ranked.index)
      if (prepared === null) {
        // Not split (no such episode, or fields where they were not expected): the record's own JSON.
        parts.push(Buffer.from(JSON.stringify(render(ranked)), "utf8"))
        return
      }
      parts.push(
        prepared.before,
        Buffer.from(
          `"relevance":${JSON.stringify(ranked.relevance)},"matchedFields":${JSON.stringify(ranked.matchedFields)}`,
          "utf8"
        ),
        prepared.after
      )
    })
    parts.push(ascii(`],"nextCursor":${JSON.stringify(page.nextCursor)},"schemaVersion":"1"}`))
    return Buffer.concat(parts)
  }
}
