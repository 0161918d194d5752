// Episode identity (ARCHITECTURE.md): the slug is the episode number as text, taken from
// itunes:episode / podcast:episode or else from a link whose last path segment is a number; the
// session is the season, else 1. Episodes without a number get negative slugs in publication order
// (-1 the oldest), so that existing slugs never change as the feed grows.
//
// Two episodes of one session with the same number are a broken feed and stop the build. A feed
// whose numbering restarts per season (or that aggregates several shows, one per season) repeats
// numbers across sessions; there the earliest episode keeps the number as its slug and later ones
// are slugged like unnumbered episodes, which again keeps every published slug stable.
import * as Either from "effect/Either"
import type { FeedItem } from "./Feed.js"

export interface EpisodeIdentity {
  readonly slug: string
  /** The number the feed gives, or the negative slug for an unnumbered episode. */
  readonly episodeNumber: number
  readonly session: number
}

export interface DuplicateSlug {
  readonly slug: string
  readonly session: number
  readonly first: FeedItem
  readonly second: FeedItem
}

/** The number at the end of a link whose last path segment is only digits (`…/episodes/42`). */
export const numberFromLink = (link: string | undefined): number | undefined => {
  if (link === undefined) return undefined
  let path: string
  try {
    path = new URL(link).pathname
  } catch {
    return undefined
  }
  const match = /\/(\d{1,9})\/?$/.exec(path)
  return match ? Number(match[1]) : undefined
}

const feedNumber = (item: FeedItem): number | undefined =>
  item.declaredNumber ?? (item.episodeType === "full" ? numberFromLink(item.link) : undefined)

/** Oldest first; among equal dates, the one further down the (newest-first) feed is older. */
const byPublication = (a: FeedItem, b: FeedItem) =>
  a.publishedAt.getTime() - b.publishedAt.getTime() || b.position - a.position

/** The identity of every item, in the order of `items`, or the first duplicate within a session. */
export const assignIdentities = (
  items: ReadonlyArray<FeedItem>
): Either.Either<Array<EpisodeIdentity>, DuplicateSlug> => {
  const identities = new Map<FeedItem, EpisodeIdentity>()
  const holders = new Map<number, FeedItem>()
  const unnumbered: Array<FeedItem> = []
  for (const item of [...items].sort(byPublication)) {
    const number = feedNumber(item)
    const session = item.season ?? 1
    if (number === undefined) {
      unnumbered.push(item)
      continue
    }
    const holder = holders.get(number)
    if (holder === undefined) {
      holders.set(number, item)
      identities.set(item, { slug: String(number), episodeNumber: number, session })
    } else if ((holder.season ?? 1) === session) {
      return Either.left({ slug: String(number), session, first: holder, second: item })
    } else {
      unnumbered.push(item)
      identities.set(item, { slug: "", episodeNumber: number, session })
    }
  }
  unnumbered.sort(byPublication).forEach((item, index) => {
    const slug = -(index + 1)
    const displaced = identities.get(item)
    identities.set(item, {
      slug: String(slug),
      episodeNumber: displaced?.episodeNumber ?? slug,
      session: item.season ?? 1
    })
  })
  return Either.right(items.map((item) => identities.get(item) as EpisodeIdentity))
}
