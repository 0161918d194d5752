// Turns what the feed and the transcript files say into the catalog's records: Episode and
// Transcript, built with their Schema classes so that a record that breaks the contract stops the
// build here instead of reaching a client.
import { createHash } from "node:crypto"
import { apiPaths } from "../src/catalog/domain/ApiPaths.js"
import {
  Audio,
  type Chapter,
  Episode,
  EpisodeLinks,
  Person,
  PlatformLinks,
  TranscriptRef
} from "../src/catalog/domain/Episode.js"
import {
  Paragraph,
  Transcript,
  TranscriptEpisodeContext,
  TranscriptSource
} from "../src/catalog/domain/Transcript.js"
import type { FeedChannel, FeedItem } from "./Feed.js"
import { htmlToMarkdown, htmlToText } from "./Html.js"
import type { EpisodeIdentity } from "./Slugs.js"
import type { ParsedTranscript } from "./transcripts/ParsedTranscript.js"

export const sha256Hex = (data: string | Uint8Array): string =>
  createHash("sha256").update(data).digest("hex")

const countWords = (text: string): number => {
  const trimmed = text.trim()
  return trimmed === "" ? 0 : trimmed.split(/\s+/).length
}

export interface EpisodeSource {
  readonly item: FeedItem
  readonly identity: EpisodeIdentity
  readonly chapters: ReadonlyArray<Chapter>
}

/** Which alternate-link titles name which platform. */
const platformTitles: Record<string, "applePodcasts" | "spotify"> = {
  "apple podcasts": "applePodcasts",
  apple: "applePodcasts",
  spotify: "spotify"
}

const platformLinks = (channel: FeedChannel, item: FeedItem): PlatformLinks => {
  const found: { applePodcasts?: string; spotify?: string } = {}
  for (const alternate of item.alternates) {
    const platform = platformTitles[alternate.title.toLowerCase()]
    if (platform !== undefined && found[platform] === undefined) found[platform] = alternate.href
  }
  return new PlatformLinks({ official: channel.link, ...found })
}

/**
 * The links of an episode; `transcript` only when the episode has one. Links to this API are
 * relative to the snapshot's root: the snapshot names no origin (see ApiPaths.ts).
 */
export const episodeLinks = (
  channel: FeedChannel,
  item: FeedItem,
  slug: string,
  hasTranscript: boolean
): EpisodeLinks =>
  new EpisodeLinks({
    api: apiPaths.episode(slug),
    audio: item.enclosure.url,
    official: item.link ?? channel.link,
    ...(hasTranscript ? { transcript: apiPaths.transcript(slug) } : {}),
    web: channel.link
  })

export interface TranscriptInput {
  readonly parsed: ParsedTranscript
  readonly sourceUrl: string
  readonly language: string
}

/** The transcript record; `text` is the paragraphs, each led by its speaker, separated by blank lines. */
export const makeTranscript = (
  channel: FeedChannel,
  source: EpisodeSource,
  input: TranscriptInput
): Transcript => {
  const { item, identity } = source
  const paragraphs = input.parsed.paragraphs.map(
    (paragraph, index) =>
      new Paragraph({
        index,
        speaker: paragraph.speaker,
        startSeconds: paragraph.startSeconds,
        endSeconds: paragraph.endSeconds,
        text: paragraph.text
      })
  )
  const text = paragraphs.map((p) => (p.speaker === null ? p.text : `${p.speaker}: ${p.text}`)).join("\n\n")
  return new Transcript({
    slug: identity.slug,
    title: item.title,
    language: input.language,
    format: input.parsed.format,
    text,
    paragraphs,
    source: new TranscriptSource({
      sourceUrl: input.sourceUrl,
      contentSha256: sha256Hex(text),
      wordCount: paragraphs.reduce((sum, p) => sum + countWords(p.text), 0),
      format: input.parsed.format
    }),
    context: {
      episode: new TranscriptEpisodeContext({
        slug: identity.slug,
        title: item.title,
        session: identity.session,
        episodeNumber: identity.episodeNumber,
        publishedAt: item.publishedAt.toISOString(),
        links: episodeLinks(channel, item, identity.slug, true)
      })
    }
  })
}

export const makeEpisode = (
  channel: FeedChannel,
  source: EpisodeSource,
  transcript: { readonly record: Transcript; readonly path: string } | undefined
): Episode => {
  const { item, identity } = source
  const officialPage = item.link ?? channel.link
  return new Episode({
    slug: identity.slug,
    kind: "episode",
    episodeNumber: identity.episodeNumber,
    session: identity.session,
    title: item.title,
    subtitle: item.subtitle === undefined ? "" : htmlToText(item.subtitle),
    description: htmlToText(item.description),
    showNotes: item.showNotesHtml === undefined ? "" : htmlToMarkdown(item.showNotesHtml),
    publishedAt: item.publishedAt.toISOString(),
    durationSeconds: item.durationSeconds,
    transcriptAvailable: transcript !== undefined,
    relevance: null,
    matchedFields: [],
    chapters: source.chapters,
    ...(item.imageUrl === undefined && channel.imageUrl === undefined
      ? {}
      : { imageUrl: item.imageUrl ?? channel.imageUrl }),
    people: item.people.map(
      (person) => new Person({ name: person.name, role: person.role, url: person.href ?? officialPage })
    ),
    links: episodeLinks(channel, item, identity.slug, transcript !== undefined),
    audio: new Audio({
      url: item.enclosure.url,
      mimeType: item.enclosure.type,
      sizeBytes: item.enclosure.length,
      durationSeconds: item.durationSeconds
    }),
    platformLinks: platformLinks(channel, item),
    ...(transcript === undefined
      ? {}
      : {
          transcript: new TranscriptRef({
            sourceUrl: transcript.record.source.sourceUrl,
            path: transcript.path,
            contentSha256: transcript.record.source.contentSha256,
            wordCount: transcript.record.source.wordCount
          })
        })
  })
}
