// The two result lists: episodes (newest first without a query) and transcript passages, each a
// link that opens the episode (a passage's link starts the player at its paragraph), with what the
// reader answered shown as text: titles, seasons, the snippet with its highlights.
import type { SnapshotReader } from "@podcast-platform/snapshot-reader"
import { clock, date, duration, el, highlighted } from "./Dom.js"
import { hashOf } from "./Route.js"

export type EpisodeJson = Awaited<ReturnType<SnapshotReader["searchEpisodes"]>>["data"][number]
export type SummaryJson = Awaited<ReturnType<SnapshotReader["searchEpisodeSummaries"]>>["data"][number]
export type HitJson = Awaited<ReturnType<SnapshotReader["searchTranscripts"]>>["data"][number]

const fieldNames: Readonly<Record<string, string>> = {
  title: "title",
  people: "people",
  subtitle: "subtitle",
  description: "description",
  showNotes: "show notes"
}

let described = 0
/** A fresh id for an element that describes a result link. */
const nextId = () => `result-${++described}`

/** "Season 3 · Episode 12": unnumbered episodes (negative numbers) name their season only. */
export const placeOf = (episode: { readonly session: number; readonly episodeNumber: number }) =>
  episode.episodeNumber > 0
    ? `Season ${episode.session} · Episode ${episode.episodeNumber}`
    : `Season ${episode.session} · Bonus`

/**
 * A result: a link named by its title and described by the paragraphs under it (the meta line, then
 * the text), and any further lines.
 */
const resultItem = (
  href: string,
  title: string,
  meta: string,
  text: { readonly class: string; readonly content: ReadonlyArray<Node | string> },
  ...more: ReadonlyArray<Node | false>
): HTMLLIElement => {
  const metaId = nextId()
  const textId = nextId()
  return el(
    "li",
    { class: "result-item" },
    el("a", { class: "result", href, "aria-describedby": `${metaId} ${textId}` }, title),
    el("p", { class: "meta", id: metaId }, meta),
    el("p", { class: text.class, id: textId }, ...text.content),
    ...more
  )
}

export const episodeItem = (episode: SummaryJson, q: string): HTMLLIElement => {
  const matched = episode.matchedFields.map((field) => fieldNames[field] ?? field)
  return resultItem(
    hashOf({ q, episode: episode.slug }),
    episode.title,
    `${placeOf(episode)} · ${date(episode.publishedAt)} · ${duration(episode.durationSeconds)}`,
    { class: "about", content: [episode.subtitle || episode.description] },
    matched.length > 0 && el("p", { class: "matched" }, `Found in the ${matched.join(", ")}`)
  )
}

export const hitItem = (hit: HitJson, q: string): HTMLLIElement => {
  const at = hit.startSeconds === null ? undefined : hit.startSeconds
  const where = [
    placeOf(hit),
    at === undefined ? "time unknown" : `at ${clock(at)}`,
    hit.speaker ?? undefined
  ].filter((part) => part !== undefined)
  return resultItem(hashOf({ q, episode: hit.slug, t: at }), hit.title, where.join(" · "), {
    class: "snippet",
    content: highlighted(hit.snippet, hit.highlights)
  })
}
