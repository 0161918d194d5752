// A ranked transcript paragraph as the TranscriptHit the service answers: the shared rendering
// (TranscriptHitFields.ts) over the loaded catalog, with links on the instance's origin.
import type { CatalogService } from "../Catalog.js"
import { TranscriptHit, TranscriptHitLinks } from "../domain/Collections.js"
import type { Episode } from "../domain/Episode.js"
import type { RankedParagraph } from "./ParagraphRanking.js"
import { transcriptHit } from "./TranscriptHitFields.js"

export const makeTranscriptHitRenderer = (catalog: CatalogService) => {
  const link = (path: string) => `${catalog.origin}/${path}`
  return (terms: ReadonlySet<string>) =>
    (ranked: RankedParagraph): TranscriptHit => {
      const episode = catalog.episode(ranked.slug) as Episode
      const paragraph = catalog.transcriptRecord(ranked.slug)?.paragraphs[ranked.paragraphIndex]
      const fields = transcriptHit(ranked, episode, paragraph, terms, link)
      // Built from validated records: the classes only carry the fields.
      return new TranscriptHit({ ...fields, links: new TranscriptHitLinks(fields.links, true) }, true)
    }
}
