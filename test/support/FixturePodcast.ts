// A small podcast written to a temporary folder for build and server tests: six episodes over two
// seasons (one trailer, one bonus), a transcript in each format, chapters and docs. Tests change it
// through `overrides` to make broken inputs.
import { mkdirSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { tempDir } from "./TempDir.js"

export interface FixtureItem {
  readonly title: string
  readonly number?: number
  readonly season?: number
  readonly type?: "full" | "bonus" | "trailer"
  readonly pubDate: string
  readonly link?: string
  readonly transcript?: { readonly file: string; readonly type: string }
  readonly chapters?: string
  readonly extra?: string
  readonly omit?: ReadonlyArray<"title" | "pubDate" | "enclosure">
}

export const defaultItems: ReadonlyArray<FixtureItem> = [
  {
    title: "Fog Signals and the Sound of Safety",
    number: 4,
    season: 2,
    pubDate: "Tue, 02 Apr 2024 06:00:00 +0000",
    transcript: { file: "transcripts/4.md", type: "text/markdown" },
    chapters: "chapters/4.json"
  },
  {
    title: "A Bonus Walk Along the Breakwater",
    season: 2,
    type: "bonus",
    pubDate: "Tue, 26 Mar 2024 06:00:00 +0000",
    link: "https://fixture.example/episodes/bonus-breakwater",
    transcript: { file: "transcripts/bonus.txt", type: "text/plain" }
  },
  {
    title: "Keepers' Logbooks",
    number: 3,
    season: 2,
    pubDate: "Tue, 19 Mar 2024 06:00:00 +0000",
    transcript: { file: "transcripts/3.json", type: "application/json" }
  },
  {
    title: "Lenses from Paris",
    number: 2,
    season: 1,
    pubDate: "Tue, 12 Mar 2024 06:00:00 +0000",
    transcript: { file: "transcripts/2.srt", type: "application/x-subrip" }
  },
  {
    title: "The First Light on the Headland",
    number: 1,
    season: 1,
    pubDate: "Tue, 05 Mar 2024 06:00:00 +0000",
    transcript: { file: "transcripts/1.vtt", type: "text/vtt" }
  },
  {
    title: "Trailer: Welcome to Fixture Lights",
    type: "trailer",
    pubDate: "Tue, 27 Feb 2024 06:00:00 +0000",
    link: "https://fixture.example/episodes/trailer"
  }
]

export const defaultFiles: Readonly<Record<string, string>> = {
  "transcripts/1.vtt": [
    "WEBVTT",
    "",
    "00:00:01.000 --> 00:00:05.000",
    "<v Ada Marsh>The first light on the headland was lit in eighteen fifty-one.</v>",
    "",
    "00:00:05.500 --> 00:00:09.000",
    "<v Tom Reyes>And the keeper walked up ninety-nine steps every evening.</v>",
    ""
  ].join("\n"),
  "transcripts/2.srt": [
    "1",
    "00:00:00,500 --> 00:00:04,000",
    "Ada Marsh: The Fresnel lenses came from Paris in wooden crates.",
    "",
    "2",
    "00:00:04,200 --> 00:00:08,000",
    "Tom Reyes: Each prism was polished by hand.",
    ""
  ].join("\n"),
  "transcripts/3.json": JSON.stringify({
    version: "1.0.0",
    segments: [
      { speaker: "Ada Marsh", startTime: 0, endTime: 3, body: "The logbooks recorded every storm." },
      {
        speaker: "Lena Ortiz",
        startTime: 3.5,
        endTime: 8,
        body: "I read four hundred logbooks in the archive at Portland."
      }
    ]
  }),
  "transcripts/4.md": [
    "**Ada Marsh:** Fog signals were the voice of the lighthouse.",
    "",
    "**Tom Reyes:** \\[02:10\\] The diaphone horn could be heard for miles. \\[laughter\\]",
    "",
    "It sounded every thirty seconds in thick fog.",
    ""
  ].join("\n"),
  "transcripts/bonus.txt":
    "We walked the breakwater at low tide.\n\nThe granite blocks were cut on the island.\n",
  "chapters/4.json": JSON.stringify({
    version: "1.2.0",
    chapters: [
      { startTime: 0, title: "Cold open" },
      { startTime: 130, title: "The diaphone", url: "https://fixture.example/diaphone" },
      { startTime: 300, toc: false, title: "Hidden" }
    ]
  }),
  "docs/getting-started.md": "# Getting started\n\nRun the service and search the catalog.\n",
  "docs/caching.md": "# Conditional requests\n\nSend If-None-Match with the ETag you have.\n"
}

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

const renderItem = (item: FixtureItem, index: number) => {
  const omit = new Set(item.omit ?? [])
  const link = item.link ?? `https://fixture.example/episodes/${item.number ?? `extra-${index}`}`
  const lines = [
    "    <item>",
    omit.has("title") ? "" : `      <title>${escapeXml(item.title)}</title>`,
    `      <guid isPermaLink="false">fixture-${index}-${item.number ?? item.type}</guid>`,
    `      <link>${link}</link>`,
    omit.has("pubDate") ? "" : `      <pubDate>${item.pubDate}</pubDate>`,
    `      <description>About ${escapeXml(item.title)}.</description>`,
    `      <itunes:subtitle>A short line about ${escapeXml(item.title)}.</itunes:subtitle>`,
    `      <content:encoded><![CDATA[<p>Notes.</p><ul><li><a href="https://fixture.example/read">Further reading</a></li></ul>]]></content:encoded>`,
    omit.has("enclosure")
      ? ""
      : `      <enclosure url="https://cdn.fixture.example/${index}.mp3" length="1234567" type="audio/mpeg"/>`,
    "      <itunes:duration>00:30:00</itunes:duration>",
    `      <itunes:episodeType>${item.type ?? "full"}</itunes:episodeType>`,
    item.number === undefined ? "" : `      <itunes:episode>${item.number}</itunes:episode>`,
    item.season === undefined ? "" : `      <itunes:season>${item.season}</itunes:season>`,
    '      <podcast:person role="host" href="https://fixture.example/people/ada">Ada Marsh</podcast:person>',
    '      <podcast:person role="Guest" href="https://fixture.example/people/tom">Tom Reyes</podcast:person>',
    '      <atom:link rel="alternate" type="text/html" title="Apple Podcasts" href="https://podcasts.apple.example/fixture"/>',
    '      <atom:link rel="alternate" type="text/html" title="Spotify" href="https://open.spotify.example/fixture"/>',
    item.chapters === undefined
      ? ""
      : `      <podcast:chapters url="${item.chapters}" type="application/json+chapters"/>`,
    item.transcript === undefined
      ? ""
      : `      <podcast:transcript url="${item.transcript.file}" type="${item.transcript.type}" language="en"/>`,
    item.extra ?? "",
    "    </item>"
  ]
  return lines.filter((line) => line !== "").join("\n")
}

export const renderFeed = (items: ReadonlyArray<FixtureItem>) =>
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:atom="http://www.w3.org/2005/Atom">',
    "  <channel>",
    "    <title>Fixture Lights</title>",
    "    <link>https://fixture.example</link>",
    "    <description>A test podcast about lighthouses.</description>",
    "    <language>en</language>",
    '    <atom:link rel="self" href="https://fixture.example/feed.xml" type="application/rss+xml"/>',
    '    <itunes:image href="https://fixture.example/cover.jpg"/>',
    ...items.map(renderItem),
    "  </channel>",
    "</rss>",
    ""
  ].join("\n")

export interface FixtureOptions {
  readonly items?: ReadonlyArray<FixtureItem>
  /** Replaces or adds files; `null` removes one. */
  readonly files?: Readonly<Record<string, string | null>>
  /** Replaces the whole feed text. */
  readonly feed?: string
}

/** Writes the fixture podcast to a fresh temporary folder; returns the paths a build needs. */
export const writeFixturePodcast = (options: FixtureOptions = {}) => {
  const root = tempDir("fixture-podcast-")
  const files: Record<string, string | null> = { ...defaultFiles, ...options.files }
  for (const [path, content] of Object.entries(files)) {
    if (content === null) continue
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), content)
  }
  const feed = join(root, "feed.xml")
  writeFileSync(feed, options.feed ?? renderFeed(options.items ?? defaultItems))
  return { root, feed, docs: join(root, "docs"), out: join(root, "out") }
}
