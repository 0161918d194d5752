// Reads a podcast feed (RSS 2.0 with the iTunes, Podcasting 2.0, content and Atom namespaces) into
// plain records, checking every field the catalog needs and naming the item and line of a problem.
import * as Either from "effect/Either"
import { childNamed, childrenNamed, childText, parseXml, type XmlElement } from "./Xml.js"

const ns = {
  rss: "",
  itunes: "http://www.itunes.com/dtds/podcast-1.0.dtd",
  podcast: "https://podcastindex.org/namespace/1.0",
  content: "http://purl.org/rss/1.0/modules/content/",
  atom: "http://www.w3.org/2005/Atom"
} as const

export interface FeedChannel {
  readonly title: string
  readonly link: string
  readonly description: string
  readonly language: string
  readonly imageUrl: string | undefined
  readonly selfUrl: string | undefined
}

export interface FeedPerson {
  readonly name: string
  readonly role: string
  readonly href: string | undefined
}

export interface FeedLink {
  readonly url: string
  readonly type: string | undefined
  readonly language: string | undefined
  readonly line: number
}

export type EpisodeType = "full" | "bonus" | "trailer"

export interface FeedItem {
  /** 1-based line of the `<item>` tag. */
  readonly line: number
  /** 0-based position in the feed. */
  readonly position: number
  readonly title: string
  readonly guid: string
  readonly link: string | undefined
  readonly publishedAt: Date
  readonly description: string
  readonly subtitle: string | undefined
  readonly showNotesHtml: string | undefined
  readonly enclosure: { readonly url: string; readonly length: number; readonly type: string }
  readonly durationSeconds: number
  /** `itunes:episode` or `podcast:episode`. */
  readonly declaredNumber: number | undefined
  readonly season: number | undefined
  readonly episodeType: EpisodeType
  readonly imageUrl: string | undefined
  readonly people: ReadonlyArray<FeedPerson>
  readonly chapters: FeedLink | undefined
  readonly transcripts: ReadonlyArray<FeedLink>
  /** `atom:link rel="alternate"` entries: the episode on other platforms, by title. */
  readonly alternates: ReadonlyArray<{ readonly title: string; readonly href: string }>
}

export interface Feed {
  readonly channel: FeedChannel
  readonly items: ReadonlyArray<FeedItem>
}

/**
 * A problem in the feed: its line, the item it is in when known (its title, or for an item without
 * one its guid), and what is wrong.
 */
export interface FeedProblem {
  readonly line: number
  readonly item: string | undefined
  readonly guid?: string | undefined
  readonly message: string
}

// Field readers throw a Problem to stop at the first bad field; parseFeed turns it into a value.
class Problem {
  constructor(
    readonly line: number,
    readonly message: string
  ) {}
}

const fail = (line: number, message: string): never => {
  throw new Problem(line, message)
}

/** `HH:MM:SS`, `MM:SS` or seconds, optionally with a fraction; rounded to whole seconds. */
export const parseDuration = (text: string): number | undefined => {
  const match = /^(?:(?:(\d+):)?(\d{1,2}):)?(\d+(?:\.\d+)?)$/.exec(text.trim())
  if (!match) return undefined
  const [, h, m, s] = match
  if (m !== undefined && Number(s) >= 60) return undefined
  return Math.round(Number(h ?? 0) * 3600 + Number(m ?? 0) * 60 + Number(s))
}

const positiveInteger = (element: XmlElement | undefined, name: string): number | undefined => {
  if (!element) return undefined
  const text = element.text.trim()
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1)
    fail(element.line, `${name} must be a positive integer, got "${text}"`)
  return Number(text)
}

const required = (item: XmlElement, uri: string, local: string, name: string): string =>
  childText(item, uri, local) ?? fail(item.line, `missing required <${name}>`)

const readLink = (element: XmlElement, name: string): FeedLink => ({
  url: element.attributes.get("url")?.trim() || fail(element.line, `<${name}> has no url attribute`),
  type: element.attributes.get("type")?.trim() || undefined,
  language: element.attributes.get("language")?.trim() || undefined,
  line: element.line
})

/** What identifies an item besides its title: its guid, else its link, else its audio URL. */
const identityOf = (item: XmlElement): string | undefined =>
  childText(item, ns.rss, "guid") ??
  childText(item, ns.rss, "link") ??
  (childNamed(item, ns.rss, "enclosure")?.attributes.get("url")?.trim() || undefined)

const readItem = (item: XmlElement, position: number): FeedItem => {
  const title = required(item, ns.rss, "title", "title")
  const pubDate = required(item, ns.rss, "pubDate", "pubDate")
  const publishedAt = new Date(pubDate)
  if (Number.isNaN(publishedAt.getTime())) fail(item.line, `<pubDate> is not a date: "${pubDate}"`)
  const enclosureElement =
    childNamed(item, ns.rss, "enclosure") ?? fail(item.line, "missing required <enclosure>")
  const lengthText = enclosureElement.attributes.get("length")?.trim() ?? "0"
  if (!/^\d+$/.test(lengthText))
    fail(enclosureElement.line, `<enclosure> length must be a byte count, got "${lengthText}"`)
  const enclosure = {
    url:
      enclosureElement.attributes.get("url")?.trim() || fail(enclosureElement.line, "<enclosure> has no url"),
    length: Number(lengthText),
    type:
      enclosureElement.attributes.get("type")?.trim() ||
      fail(enclosureElement.line, "<enclosure> has no type")
  }
  const durationElement = childNamed(item, ns.itunes, "duration")
  const durationText = durationElement?.text.trim() ?? ""
  const durationSeconds = durationText === "" ? 0 : parseDuration(durationText)
  if (durationSeconds === undefined) {
    fail(durationElement?.line ?? item.line, `<itunes:duration> is not a duration: "${durationText}"`)
  }
  const episodeTypeText = (childText(item, ns.itunes, "episodeType") ?? "full").toLowerCase()
  if (episodeTypeText !== "full" && episodeTypeText !== "bonus" && episodeTypeText !== "trailer") {
    fail(item.line, `<itunes:episodeType> must be full, bonus or trailer, got "${episodeTypeText}"`)
  }
  const link = childText(item, ns.rss, "link")
  const people = childrenNamed(item, ns.podcast, "person").map((person) => ({
    name: person.text.trim() || fail(person.line, "<podcast:person> has no name"),
    // Podcasting 2.0: the role defaults to host; roles are case-insensitive.
    role: (person.attributes.get("role")?.trim() || "host").toLowerCase(),
    href: person.attributes.get("href")?.trim() || undefined
  }))
  const chaptersElement = childNamed(item, ns.podcast, "chapters")
  return {
    line: item.line,
    position,
    title,
    guid: identityOf(item) ?? enclosure.url,
    link,
    publishedAt,
    description: childText(item, ns.rss, "description") ?? childText(item, ns.itunes, "summary") ?? "",
    subtitle: childText(item, ns.itunes, "subtitle"),
    showNotesHtml: childText(item, ns.content, "encoded"),
    enclosure,
    durationSeconds: durationSeconds ?? 0,
    declaredNumber:
      positiveInteger(childNamed(item, ns.itunes, "episode"), "<itunes:episode>") ??
      positiveInteger(childNamed(item, ns.podcast, "episode"), "<podcast:episode>"),
    season:
      positiveInteger(childNamed(item, ns.itunes, "season"), "<itunes:season>") ??
      positiveInteger(childNamed(item, ns.podcast, "season"), "<podcast:season>"),
    episodeType: episodeTypeText as EpisodeType,
    imageUrl: childNamed(item, ns.itunes, "image")?.attributes.get("href")?.trim() || undefined,
    people,
    chapters: chaptersElement ? readLink(chaptersElement, "podcast:chapters") : undefined,
    transcripts: childrenNamed(item, ns.podcast, "transcript").map((element) =>
      readLink(element, "podcast:transcript")
    ),
    alternates: childrenNamed(item, ns.atom, "link")
      .filter((element) => element.attributes.get("rel") === "alternate" && element.attributes.get("href"))
      .map((element) => ({
        title: element.attributes.get("title")?.trim() ?? "",
        href: element.attributes.get("href")?.trim() ?? ""
      }))
  }
}

const readChannel = (channel: XmlElement): FeedChannel => ({
  title: required(channel, ns.rss, "title", "title"),
  link: required(channel, ns.rss, "link", "link"),
  description: childText(channel, ns.rss, "description") ?? "",
  language: childText(channel, ns.rss, "language") ?? "en",
  imageUrl:
    childNamed(channel, ns.itunes, "image")?.attributes.get("href")?.trim() ||
    childText(childNamed(channel, ns.rss, "image") ?? channel, ns.rss, "url"),
  selfUrl: childrenNamed(channel, ns.atom, "link")
    .find((element) => element.attributes.get("rel") === "self")
    ?.attributes.get("href")
    ?.trim()
})

/** Reads a feed's text; a problem is reported with the line and item it concerns. */
export const parseFeed = (source: string): Either.Either<Feed, FeedProblem> =>
  Either.flatMap(
    Either.mapLeft(
      parseXml(source),
      (error): FeedProblem => ({
        line: error.line,
        item: undefined,
        message: `not well-formed XML: ${error.message}`
      })
    ),
    (root): Either.Either<Feed, FeedProblem> => {
      if (root.local !== "rss")
        return Either.left({ line: root.line, item: undefined, message: "the root element must be <rss>" })
      const channel = childNamed(root, ns.rss, "channel")
      if (!channel) return Either.left({ line: root.line, item: undefined, message: "missing <channel>" })
      let label: { readonly item: string | undefined; readonly guid: string | undefined } = {
        item: undefined,
        guid: undefined
      }
      try {
        const parsedChannel = readChannel(channel)
        const items = childrenNamed(channel, ns.rss, "item").map((item, position) => {
          const title = childText(item, ns.rss, "title")
          label = { item: title, guid: title === undefined ? identityOf(item) : undefined }
          return readItem(item, position)
        })
        return Either.right({ channel: parsedChannel, items })
      } catch (error) {
        if (error instanceof Problem)
          return Either.left({ line: error.line, ...label, message: error.message })
        throw error
      }
    }
  )
