// A ranked transcript paragraph as the hit a search answers: its episode, speaker and start, a
// snippet with highlights, and links to the episode, the transcript and the audio at that moment.
import type { CatalogService } from "../Catalog.js"
import { TranscriptHit, TranscriptHitLinks } from "../domain/Collections.js"
import type { Episode } from "../domain/Episode.js"
import type { ParagraphLocation } from "./ParagraphLocator.js"
import { snippetOf } from "./Snippet.js"

export interface RankedParagraph extends ParagraphLocation {
  readonly relevance: number
}

export const makeTranscriptHitRenderer = (catalog: CatalogService) => {
  const baseUrl = catalog.manifest.baseUrl.replace(/\/+$/, "")

  /** The nearest known start at or before a paragraph, so every hit can link into the audio. */
  const audioStart = (slug: string, paragraphIndex: number): number => {
    const paragraphs = catalog.transcriptRecord(slug)?.paragraphs ?? []
    for (let i = paragraphIndex; i >= 0; i--) {
      const start = paragraphs[i]?.startSeconds
      if (start !== null && start !== undefined) return start
    }
    return 0
  }

  return (terms: ReadonlySet<string>) =>
    (ranked: RankedParagraph): TranscriptHit => {
      const episode = catalog.episode(ranked.slug) as Episode
      const paragraph = catalog.transcriptRecord(ranked.slug)?.paragraphs[ranked.paragraphIndex]
      const { snippet, highlights } = snippetOf(paragraph?.text ?? "", terms)
      return new TranscriptHit(
        {
          slug: ranked.slug,
          title: episode.title,
          session: episode.session,
          episodeNumber: episode.episodeNumber,
          paragraphIndex: ranked.paragraphIndex,
          speaker: paragraph?.speaker ?? null,
          startSeconds: paragraph?.startSeconds ?? null,
          snippet,
          highlights,
          relevance: ranked.relevance,
          links: new TranscriptHitLinks(
            {
              episode: `${baseUrl}/v1/episodes/${encodeURIComponent(ranked.slug)}`,
              transcript: `${baseUrl}/v1/transcripts/${encodeURIComponent(ranked.slug)}`,
              audioAt: `${episode.audio.url}#t=${audioStart(ranked.slug, ranked.paragraphIndex)}`
            },
            true
          )
        },
        true
      )
    }
}
