// A ranked transcript paragraph as the fields of the hit a search answers: its episode, speaker and
// start, a snippet with highlights, and links to the episode, the transcript and the audio at that
// moment. The one rendering, shared by the service (TranscriptHitRenderer.ts wraps it in its Schema
// class) and the snapshot reader, which runs in browsers: nothing here but plain data.

import { apiPaths } from "../domain/ApiPaths.js"
import type { TranscriptHit } from "../domain/Collections.js"
import type { RankedParagraph } from "./ParagraphRanking.js"
import { snippetOf } from "./Snippet.js"

/** What a hit shows of its episode. */
export interface HitEpisode {
  readonly title: string
  readonly session: number
  readonly episodeNumber: number
  readonly audio: { readonly url: string }
}

/** What a hit shows of its paragraph. */
export interface HitParagraph {
  readonly speaker: string | null
  readonly startSeconds: number | null
  readonly text: string
}

/**
 * The audio at the paragraph's start (`#t=<startSeconds>`, catalog-extensions §2). A paragraph
 * without a time of its own links to the whole audio: an earlier paragraph's time would promise a
 * moment the transcript does not know, and the hit's `startSeconds` (null) would disagree with it.
 */
const audioAt = (audioUrl: string, startSeconds: number | null): string =>
  startSeconds === null ? audioUrl : `${audioUrl}#t=${startSeconds}`

/** A hit's fields; `link` turns a path of this API (`v1/…`) into the link answered. */
export const transcriptHit = (
  ranked: RankedParagraph,
  episode: HitEpisode,
  paragraph: HitParagraph | undefined,
  terms: ReadonlySet<string>,
  link: (path: string) => string
): typeof TranscriptHit.Encoded => {
  const startSeconds = paragraph?.startSeconds ?? null
  const { snippet, highlights } = snippetOf(paragraph?.text ?? "", terms)
  return {
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
    links: {
      episode: link(apiPaths.episode(ranked.slug)),
      transcript: link(apiPaths.transcript(ranked.slug)),
      audioAt: audioAt(episode.audio.url, startSeconds)
    }
  }
}
