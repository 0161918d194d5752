// The JSON of a transcript search page as REST answers it (an episode page is assembled from each
// episode's JSON prepared once: EpisodePageBytes.ts, held to this). Its items are built from
// records the load validated, into Schema classes whose every field encodes to itself (strings,
// numbers, null, arrays and nested classes of them, in the schema's order): JSON.stringify of the
// page is then the JSON of its schema encoding, without the encoding's walk over every field of
// every item, which was a fifth of an uncached episode search's CPU on the corpus and an eighth of a
// transcript search's (bench/HISTORY.md, issue 29). test/catalog/page-json.test.ts holds the two
// equal over the demo snapshot's lists and searches, the corpus test over the corpus': a field that
// encodes to something else (a Date, a transformation) fails them.
import type { EpisodePage, TranscriptHitPage } from "../domain/Collections.js"

export const pageJson = (page: EpisodePage | TranscriptHitPage): string => JSON.stringify(page)
