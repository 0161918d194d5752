// The text renderings that accompany each tool's structuredContent: short Markdown that a person
// (in the Inspector) or a model reading text only can follow, with every slug, cursor and link
// needed for the next call.

import { maxCharactersBounds } from "../CatalogLimits.js"
import type { EpisodePage, TranscriptHit, TranscriptHitPage } from "../domain/Collections.js"
import type { Episode, EpisodeDetail } from "../domain/Episode.js"
import type { TranscriptExcerpt } from "./TranscriptExcerpt.js"

/** `mm:ss` or `h:mm:ss`. */
export const clock = (seconds: number): string => {
  const whole = Math.floor(seconds)
  const h = Math.floor(whole / 3600)
  const m = Math.floor((whole % 3600) / 60)
  const s = String(whole % 60).padStart(2, "0")
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`
}

const day = (iso: string) => iso.slice(0, 10)

const nextPage = (cursor: string | null) =>
  cursor === null ? "This is the last page." : `More results: call again with cursor "${cursor}".`

const episodeLine = (episode: Episode) => {
  const facts = [
    `session ${episode.session}`,
    episode.episodeNumber > 0 ? `episode ${episode.episodeNumber}` : "unnumbered",
    day(episode.publishedAt),
    episode.transcriptAvailable ? "transcript available" : "no transcript"
  ]
  const relevance =
    episode.relevance === null
      ? ""
      : `\n  relevance ${episode.relevance}, matched in ${episode.matchedFields.join(", ")}`
  return `- slug ${episode.slug}: ${episode.title} (${facts.join(", ")})\n  ${episode.subtitle}${relevance}`
}

export const episodePageText = (page: EpisodePage): string =>
  page.data.length === 0
    ? "No episode matches."
    : [`${page.data.length} episode(s):`, ...page.data.map(episodeLine), nextPage(page.nextCursor)].join("\n")

export const episodeText = ({ data: episode }: EpisodeDetail): string =>
  [
    `# ${episode.title}`,
    episode.subtitle,
    `slug ${episode.slug}, session ${episode.session}, episode ${episode.episodeNumber}, published ${day(episode.publishedAt)}, ${clock(episode.durationSeconds)} long`,
    `People: ${episode.people.map((person) => `${person.name} (${person.role})`).join(", ") || "none listed"}`,
    `Transcript: ${episode.transcriptAvailable ? "available (get_transcript)" : "not available"}`,
    "",
    episode.description,
    "",
    episode.showNotes,
    ...(episode.chapters.length === 0
      ? []
      : [
          "",
          "Chapters:",
          ...episode.chapters.map((chapter) => `- ${clock(chapter.startSeconds)} ${chapter.title}`)
        ]),
    "",
    `Audio: ${episode.audio.url}`,
    `Page: ${episode.links.official}`
  ].join("\n")

const hitLine = (hit: TranscriptHit) => {
  const where = [
    `paragraph ${hit.paragraphIndex}`,
    ...(hit.speaker === null ? [] : [hit.speaker]),
    ...(hit.startSeconds === null ? [] : [`at ${clock(hit.startSeconds)}`])
  ].join(", ")
  return `- slug ${hit.slug}: ${hit.title} (${where}; relevance ${hit.relevance})\n  ${hit.snippet}\n  listen: ${hit.links.audioAt}`
}

export const hitPageText = (page: TranscriptHitPage): string =>
  page.data.length === 0
    ? "No transcript paragraph matches."
    : [`${page.data.length} transcript hit(s):`, ...page.data.map(hitLine), nextPage(page.nextCursor)].join(
        "\n"
      )

export const excerptText = (excerpt: TranscriptExcerpt): string => {
  const shown = excerpt.truncated
    ? `showing the first ${Array.from(excerpt.text).length} of ${excerpt.totalCharacters} characters (truncated: call again with a larger max_characters, up to ${maxCharactersBounds.maximum})`
    : `all ${excerpt.totalCharacters} characters`
  return `# ${excerpt.title} (slug ${excerpt.slug}), transcript in ${excerpt.language}, ${shown}\n\n${excerpt.text}`
}
