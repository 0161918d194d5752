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

  /**
   * The audio at the paragraph's start (`#t=<startSeconds>`, catalog-extensions §2). A paragraph
   * without a time of its own links to the whole audio: an earlier paragraph's time would promise a
   * moment the transcript does not know, and the hit's `startSeconds` (null) would disagree with it.
   */
  const audioAt = (audioUrl: string, startSeconds: number | null): string =>
    startSeconds === null ? audioUrl : `${audioUrl}#t=${startSeconds}`

  return (terms: ReadonlySet<string>) =>
    (ranked: RankedParagraph): TranscriptHit => {
      const episode = catalog.episode(ranked.slug) as Episode
      const paragraph = catalog.transcriptRecord(ranked.slug)?.paragraphs[ranked.paragraphIndex]
      const startSeconds = paragraph?.startSeconds ?? null
      const { snippet, highlights } = snippetOf(paragraph?.text ?? "", terms)
      return new TranscriptHit(
        {
          slug: ranked.slug,
          title: episode.title,
          session: episode.session,
          episodeNumber: episode.episodeNumber,
          paragraphIndex: ranked.paragraphIndex,
          speaker: paragraph?.speaker ?? null,
          startSeconds,
          snippet,
          highlights,
          relevance: ranked.relevance,
          links: new TranscriptHitLinks(
            {
              episode: `${baseUrl}/v1/episodes/${encodeURIComponent(ranked.slug)}`,
              transcript: `${baseUrl}/v1/transcripts/${encodeURIComponent(ranked.slug)}`,
              audioAt: audioAt(episode.audio.url, startSeconds)
            },
            true
          )
        },
        true
      )
    }
}
