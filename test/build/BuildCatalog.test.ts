// The build step turns a feed, its transcripts and docs into a verified, reproducible snapshot,
// and stops with a precise message on broken input without touching the previous snapshot.
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { type BuildOptions, buildCatalog } from "../../build/BuildCatalog.js"
import type { DocCollection } from "../../src/catalog/domain/DocPage.js"
import type { EpisodeDetail } from "../../src/catalog/domain/Episode.js"
import type { SnapshotManifest } from "../../src/catalog/domain/Manifest.js"
import type { SearchData } from "../../src/catalog/domain/SearchData.js"
import type { TranscriptDetail } from "../../src/catalog/domain/Transcript.js"
import { makeParagraphIndex } from "../../src/catalog/SearchOptions.js"
import { defaultItems, type FixtureItem, renderFeed, writeFixturePodcast } from "../support/FixturePodcast.js"

const options = (
  paths: { feed: string; docs: string; out: string },
  overrides: Partial<BuildOptions> = {}
): BuildOptions => ({
  feed: paths.feed,
  docs: paths.docs,
  out: paths.out,
  sourceDateEpoch: undefined,
  progress: () => {},
  ...overrides
})

type Manifest = typeof SnapshotManifest.Encoded
type EpisodeJson = (typeof EpisodeDetail.Encoded)["data"]
type TranscriptJson = (typeof TranscriptDetail.Encoded)["data"]

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, "utf8")) as T
const readManifest = (out: string) => readJson<Manifest>(join(out, "manifest.json"))
/** A record entry the test expects to exist. */
const entry = <V>(record: Readonly<Record<string, V>>, key: string): V => {
  const value = record[key]
  if (value === undefined) throw new Error(`no entry "${key}"`)
  return value
}
const readEpisode = (out: string, slug: string) =>
  readJson<{ data: EpisodeJson }>(join(out, entry(readManifest(out).episodes, slug))).data
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest("hex")

/** Every file under a folder with its bytes, by relative path. */
const tree = (root: string, prefix = ""): Map<string, Buffer> => {
  const files = new Map<string, Buffer>()
  for (const entry of readdirSync(join(root, prefix), { withFileTypes: true })) {
    const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`
    if (entry.isDirectory()) for (const [p, b] of tree(root, path)) files.set(p, b)
    else files.set(path, readFileSync(join(root, path)))
  }
  return files
}

describe("a successful build", () => {
  const fixture = writeFixturePodcast()
  const built = Effect.runPromise(buildCatalog(options(fixture)))
  const manifest = () => readManifest(fixture.out)
  const episode = (slug: string) => readEpisode(fixture.out, slug)
  const transcript = (slug: string) =>
    readJson<{ data: TranscriptJson }>(join(fixture.out, entry(manifest().transcripts, slug))).data

  it("reports what it built", async () => {
    const summary = await built
    expect(summary).toMatchObject({ episodes: 6, transcripts: 5, docs: 2 })
    expect(summary.words).toBeGreaterThan(50)
    expect(summary.bytes).toBeGreaterThan(0)
  })

  it("names every file in the manifest with its SHA-256, and each JSON file has identical gzip and brotli copies", async () => {
    await built
    const files = manifest().files
    // The static search files and the search page are listed in their own table
    // (test/build/snapshot-format.test.ts).
    const onDisk = [...tree(fixture.out).keys()].filter(
      (path) =>
        !path.startsWith("manifest.json") && !path.startsWith("search") && !path.startsWith("index.html")
    )
    expect(Object.keys(files).sort()).toEqual(onDisk.sort())
    for (const [path, entry] of Object.entries(files)) {
      const data = readFileSync(join(fixture.out, path))
      expect(sha256(data), path).toBe(entry.sha256)
      expect(data.byteLength).toBe(entry.bytes)
      if (path.endsWith(".json")) {
        expect(gunzipSync(readFileSync(join(fixture.out, `${path}.gz`))).equals(data)).toBe(true)
        expect(brotliDecompressSync(readFileSync(join(fixture.out, `${path}.br`))).equals(data)).toBe(true)
      }
    }
  })

  it("names content files by their hash", async () => {
    await built
    for (const path of Object.values(manifest().episodes)) {
      const hash = /\.([0-9a-f]{16})\.json$/.exec(path)?.[1]
      expect(hash).toBe(sha256(readFileSync(join(fixture.out, path))).slice(0, 16))
    }
  })

  it("derives slugs from episode numbers and gives unnumbered episodes negative slugs, oldest first", async () => {
    await built
    expect(Object.keys(manifest().episodes).sort()).toEqual(["-1", "-2", "1", "2", "3", "4"])
    expect(episode("-1")).toMatchObject({
      title: "Trailer: Welcome to Fixture Lights",
      episodeNumber: -1,
      session: 1
    })
    expect(episode("-2")).toMatchObject({
      title: "A Bonus Walk Along the Breakwater",
      episodeNumber: -2,
      session: 2
    })
    expect(episode("3")).toMatchObject({ episodeNumber: 3, session: 2 })
  })

  it("writes episode details in the contract's shape", async () => {
    await built
    const four = episode("4")
    expect(four).toMatchObject({
      slug: "4",
      kind: "episode",
      title: "Fog Signals and the Sound of Safety",
      subtitle: "A short line about Fog Signals and the Sound of Safety.",
      showNotes: "Notes.\n\n- [Further reading](https://fixture.example/read)",
      publishedAt: "2024-04-02T06:00:00.000Z",
      durationSeconds: 1800,
      transcriptAvailable: true,
      relevance: null,
      matchedFields: [],
      imageUrl: "https://fixture.example/cover.jpg",
      chapters: [
        { startSeconds: 0, title: "Cold open" },
        { startSeconds: 130, title: "The diaphone", url: "https://fixture.example/diaphone" }
      ],
      people: [
        { name: "Ada Marsh", role: "host", url: "https://fixture.example/people/ada" },
        { name: "Tom Reyes", role: "guest", url: "https://fixture.example/people/tom" }
      ],
      links: {
        api: "v1/episodes/4",
        audio: "https://cdn.fixture.example/0.mp3",
        official: "https://fixture.example/episodes/4",
        transcript: "v1/transcripts/4",
        web: "https://fixture.example"
      },
      audio: {
        url: "https://cdn.fixture.example/0.mp3",
        mimeType: "audio/mpeg",
        sizeBytes: 1234567,
        durationSeconds: 1800
      },
      platformLinks: {
        official: "https://fixture.example",
        applePodcasts: "https://podcasts.apple.example/fixture",
        spotify: "https://open.spotify.example/fixture"
      }
    })
    expect(four.transcript).toEqual({
      sourceUrl: "https://fixture.example/transcripts/4.md",
      path: entry(manifest().transcripts, "4"),
      contentSha256: sha256(transcript("4").text),
      wordCount: transcript("4").source.wordCount
    })
    expect(
      readJson<{ schemaVersion: string }>(join(fixture.out, entry(manifest().episodes, "4"))).schemaVersion
    ).toBe("1")
  })

  it("leaves transcript fields out of episodes without one", async () => {
    await built
    const trailer = episode("-1")
    expect(trailer.transcriptAvailable).toBe(false)
    expect(trailer.transcript).toBeUndefined()
    expect(trailer.links.transcript).toBeUndefined()
    expect(manifest().transcripts["-1"]).toBeUndefined()
  })

  it("writes one transcript per source format with paragraphs, text and context", async () => {
    await built
    expect(["1", "2", "3", "4", "-2"].map((slug) => transcript(slug).format)).toEqual([
      "vtt",
      "srt",
      "json",
      "markdown",
      "text"
    ])
    const four = transcript("4")
    expect(four.paragraphs).toEqual([
      {
        index: 0,
        speaker: "Ada Marsh",
        startSeconds: null,
        endSeconds: null,
        text: "Fog signals were the voice of the lighthouse."
      },
      {
        index: 1,
        speaker: "Tom Reyes",
        startSeconds: 130,
        endSeconds: null,
        text: "The diaphone horn could be heard for miles. [laughter]"
      },
      {
        index: 2,
        speaker: "Tom Reyes",
        startSeconds: null,
        endSeconds: null,
        text: "It sounded every thirty seconds in thick fog."
      }
    ])
    expect(four.text).toBe(
      "Ada Marsh: Fog signals were the voice of the lighthouse.\n\nTom Reyes: The diaphone horn could be heard for miles. [laughter]\n\nTom Reyes: It sounded every thirty seconds in thick fog."
    )
    expect(four.source).toEqual({
      sourceUrl: "https://fixture.example/transcripts/4.md",
      contentSha256: sha256(four.text),
      wordCount: 25,
      format: "markdown"
    })
    expect(four.context.episode).toMatchObject({
      slug: "4",
      title: "Fog Signals and the Sound of Safety",
      session: 2,
      episodeNumber: 4
    })
    expect(four.language).toBe("en")
  })

  it("lists every episode newest first in the episodes collection", async () => {
    await built
    const collection = readJson<{ data: Array<EpisodeJson> }>(
      join(fixture.out, manifest().collections.episodes)
    )
    expect(collection.data.map((e) => e.slug)).toEqual(["4", "-2", "3", "2", "1", "-1"])
  })

  it("exports a transcript index that the shared options can import and search", async () => {
    await built
    const searchData = readJson<typeof SearchData.Encoded>(
      join(fixture.out, manifest().collections.searchData)
    )
    const index = makeParagraphIndex()
    for (const [key, path] of manifest().indexes.paragraphs)
      index.import(key, readFileSync(join(fixture.out, path), "utf8"))
    const [hit] = index.search("fresnel", { limit: 5 })
    expect(hit?.result).toHaveLength(1)
    // Paragraph ids run through the transcripts in the order search data lists them.
    let id = hit?.result[0] as number
    let found: string | undefined
    for (const [slug, count] of searchData.transcripts) {
      if (id < count) {
        found = slug
        break
      }
      id -= count
    }
    expect(found).toBe("2")
    expect(searchData.statistics.documentFrequency.lighthouse).toBe(1)
  })

  it("indexes the documentation pages", async () => {
    await built
    const docs = readJson<typeof DocCollection.Encoded>(join(fixture.out, manifest().collections.docs))
    expect(docs.data.map((page) => [page.path, page.title])).toEqual([
      ["caching.md", "Conditional requests"],
      ["getting-started.md", "Getting started"]
    ])
  })

  it("records builtAt as the newest episode's date and hashes the content into the snapshot id", async () => {
    const summary = await built
    expect(manifest().builtAt).toBe("2024-04-02T06:00:00.000Z")
    expect(manifest().id).toMatch(/^[0-9a-f]{64}$/)
    expect(summary.snapshotId).toBe(manifest().id)
  })
})

describe("reproducibility", () => {
  it.effect("the same input gives byte-identical output", () =>
    Effect.gen(function* () {
      const fixture = writeFixturePodcast()
      yield* buildCatalog(options(fixture, { out: join(fixture.root, "a") }))
      yield* buildCatalog(options(fixture, { out: join(fixture.root, "b") }))
      const a = tree(join(fixture.root, "a"))
      const b = tree(join(fixture.root, "b"))
      expect([...a.keys()].sort()).toEqual([...b.keys()].sort())
      for (const [path, bytes] of a) expect(bytes.equals(b.get(path) as Buffer), path).toBe(true)
    })
  )

  it.effect("SOURCE_DATE_EPOCH sets builtAt and changes the snapshot id", () =>
    Effect.gen(function* () {
      const fixture = writeFixturePodcast()
      const plain = yield* buildCatalog(options(fixture, { out: join(fixture.root, "a") }))
      const pinned = yield* buildCatalog(
        options(fixture, { out: join(fixture.root, "b"), sourceDateEpoch: 1_700_000_000 })
      )
      expect(readManifest(join(fixture.root, "b")).builtAt).toBe("2023-11-14T22:13:20.000Z")
      expect(pinned.snapshotId).not.toBe(plain.snapshotId)
    })
  )

  it.effect("rebuilding over an existing snapshot replaces it completely", () =>
    Effect.gen(function* () {
      const fixture = writeFixturePodcast()
      yield* buildCatalog(options(fixture))
      writeFileSync(join(fixture.out, "stray.txt"), "left over")
      yield* buildCatalog(options(fixture))
      expect(existsSync(join(fixture.out, "stray.txt"))).toBe(false)
      expect(
        readdirSync(fixture.root).filter((name) => name.includes(".tmp-") || name.includes(".old-"))
      ).toEqual([])
    })
  )
})

const slugsOf = (out: string) =>
  Object.fromEntries(
    Object.keys(readManifest(out).episodes).map((slug) => [readEpisode(out, slug).title, slug])
  )

describe("slug rules", () => {
  it.effect("existing slugs stay the same when newer numbered and unnumbered episodes are added", () =>
    Effect.gen(function* () {
      const before = writeFixturePodcast()
      yield* buildCatalog(options(before))
      const grown: Array<FixtureItem> = [
        {
          title: "A Second Bonus",
          season: 2,
          type: "bonus",
          pubDate: "Tue, 16 Apr 2024 06:00:00 +0000",
          link: "https://fixture.example/episodes/bonus-two"
        },
        { title: "Episode Five", number: 5, season: 2, pubDate: "Tue, 09 Apr 2024 06:00:00 +0000" },
        ...defaultItems
      ]
      const after = writeFixturePodcast({ items: grown })
      yield* buildCatalog(options(after))
      const old = slugsOf(before.out)
      const now = slugsOf(after.out)
      for (const [title, slug] of Object.entries(old)) expect(now[title], title).toBe(slug)
      expect(now["A Second Bonus"]).toBe("-3")
      expect(now["Episode Five"]).toBe("5")
    })
  )

  it.effect(
    "takes the number from podcast:episode or from a link ending in a number, and defaults the session to 1",
    () =>
      Effect.gen(function* () {
        const fixture = writeFixturePodcast({
          items: [
            {
              title: "Declared by podcast:episode",
              pubDate: "Tue, 02 Apr 2024 06:00:00 +0000",
              link: "https://fixture.example/p/x",
              extra: "      <podcast:episode>12</podcast:episode>"
            },
            {
              title: "Numbered by its link",
              pubDate: "Tue, 26 Mar 2024 06:00:00 +0000",
              link: "https://fixture.example/shows/7"
            },
            {
              title: "Link ends in a word",
              pubDate: "Tue, 19 Mar 2024 06:00:00 +0000",
              link: "https://fixture.example/shows/help-200"
            }
          ]
        })
        yield* buildCatalog(options(fixture))
        const bySlug = (slug: string) => readEpisode(fixture.out, slug)
        expect(bySlug("12")).toMatchObject({
          title: "Declared by podcast:episode",
          session: 1,
          episodeNumber: 12
        })
        expect(bySlug("7")).toMatchObject({ title: "Numbered by its link", session: 1 })
        expect(bySlug("-1")).toMatchObject({ title: "Link ends in a word", episodeNumber: -1 })
      })
  )

  it.effect(
    "a number repeated in a later season keeps the first episode's slug and slugs the later one as unnumbered",
    () =>
      Effect.gen(function* () {
        const fixture = writeFixturePodcast({
          items: [
            {
              title: "Season two restarts at one",
              number: 1,
              season: 2,
              pubDate: "Tue, 02 Apr 2024 06:00:00 +0000"
            },
            {
              title: "Season one, episode one",
              number: 1,
              season: 1,
              pubDate: "Tue, 05 Mar 2024 06:00:00 +0000"
            }
          ]
        })
        yield* buildCatalog(options(fixture))
        expect(readEpisode(fixture.out, "1")).toMatchObject({
          title: "Season one, episode one",
          session: 1
        })
        expect(readEpisode(fixture.out, "-1")).toMatchObject({
          title: "Season two restarts at one",
          session: 2,
          episodeNumber: 1
        })
      })
  )
})

/** Builds a broken fixture over a previous good snapshot; returns the error and checks nothing changed. */
const failingBuild = (broken: Parameters<typeof writeFixturePodcast>[0]) =>
  Effect.gen(function* () {
    const fixture = writeFixturePodcast(broken)
    const good = writeFixturePodcast()
    yield* buildCatalog(options(good, { out: fixture.out }))
    const before = tree(fixture.out)
    const error = yield* Effect.flip(buildCatalog(options(fixture)))
    const after = tree(fixture.out)
    expect([...after.keys()]).toEqual([...before.keys()])
    for (const [path, bytes] of before) expect(bytes.equals(after.get(path) as Buffer)).toBe(true)
    expect(readdirSync(fixture.root).filter((name) => name.includes(".tmp-"))).toEqual([])
    return { error, fixture }
  })

describe("malformed input stops the build and leaves the previous snapshot alone", () => {
  it.effect("broken XML names the feed and the line", () =>
    Effect.gen(function* () {
      const feed = renderFeed(defaultItems).replace(
        "<title>Lenses from Paris</title>",
        "<title>Lenses from Paris</titel>"
      )
      const { error, fixture } = yield* failingBuild({ feed })
      const line = feed.split("\n").findIndex((text) => text.includes("</titel>")) + 1
      expect(error.file).toBe(fixture.feed)
      expect(error.line).toBe(line)
      expect(error.message).toContain(`${fixture.feed}:${line}`)
      expect(error.message).toContain("not well-formed XML")
    })
  )

  it.effect.each(["title", "pubDate", "enclosure"] as const)(
    "a missing <%s> names the item and its line",
    (field) =>
      Effect.gen(function* () {
        const items = defaultItems.map((item) => (item.number === 3 ? { ...item, omit: [field] } : item))
        const { error } = yield* failingBuild({ items })
        expect(error.reason).toBe(`missing required <${field}>`)
        expect(error.line).toBeGreaterThan(1)
        if (field !== "title") expect(error.item).toBe("Keepers' Logbooks")
      })
  )

  it.effect("an unreadable date names the item", () =>
    Effect.gen(function* () {
      const items = defaultItems.map((item) =>
        item.number === 2 ? { ...item, pubDate: "the second Tuesday" } : item
      )
      const { error } = yield* failingBuild({ items })
      expect(error.item).toBe("Lenses from Paris")
      expect(error.reason).toContain("not a date")
    })
  )

  it.effect("a duplicate slug in one session names both items", () =>
    Effect.gen(function* () {
      const items = defaultItems.map((item) => (item.number === 3 ? { ...item, number: 4 } : item))
      const { error } = yield* failingBuild({ items })
      expect(error.item).toBe("Fog Signals and the Sound of Safety")
      expect(error.reason).toContain('duplicate slug "4"')
      expect(error.reason).toContain("Keepers' Logbooks")
    })
  )

  it.effect("a missing transcript names the file and the item", () =>
    Effect.gen(function* () {
      const { error, fixture } = yield* failingBuild({ files: { "transcripts/2.srt": null } })
      expect(error.file).toBe(join(fixture.root, "transcripts/2.srt"))
      expect(error.item).toBe("Lenses from Paris")
      expect(error.reason).toContain("no such file")
    })
  )

  it.effect("a transcript that cannot be parsed names the file and line", () =>
    Effect.gen(function* () {
      const { error, fixture } = yield* failingBuild({
        files: { "transcripts/1.vtt": "WEBVTT\n\n00:00:01.000 -> 00:00:02.000\n<v A>x</v>\n" }
      })
      expect(error.message).toContain(`${join(fixture.root, "transcripts/1.vtt")}:3`)
      expect(error.reason).toContain("vtt transcript")
    })
  )

  it.effect("a transcript of an unknown type is refused", () =>
    Effect.gen(function* () {
      const items = defaultItems.map((item) =>
        item.number === 1 ? { ...item, transcript: { file: "t.pdf", type: "application/pdf" } } : item
      )
      const { error } = yield* failingBuild({ items })
      expect(error.reason).toContain("no transcript in a known format")
    })
  )

  it.effect("a broken chapters file names the file", () =>
    Effect.gen(function* () {
      const { error, fixture } = yield* failingBuild({ files: { "chapters/4.json": "{ nope" } })
      expect(error.file).toBe(join(fixture.root, "chapters/4.json"))
      expect(error.reason).toContain("not valid JSON")
    })
  )
})

describe("the command line", () => {
  const run = async (args: Array<string>, env: Record<string, string> = {}) => {
    const { spawnSync } = await import("node:child_process")
    return spawnSync(process.execPath, ["--import", "tsx", "build/main.ts", ...args], {
      encoding: "utf8",
      env: { ...process.env, ...env }
    })
  }

  it("exits non-zero with a message naming the file on broken input", { timeout: 60_000 }, async () => {
    const fixture = writeFixturePodcast({ files: { "transcripts/3.json": "[" } })
    const result = await run(["--feed", fixture.feed, "--out", fixture.out])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(`catalog build failed: ${join(fixture.root, "transcripts/3.json")}`)
    expect(existsSync(fixture.out)).toBe(false)
  })

  it("prints progress and a summary of episodes, transcripts, words, bytes and time", {
    timeout: 60_000
  }, async () => {
    const fixture = writeFixturePodcast()
    const result = await run(["--feed", fixture.feed, "--docs", fixture.docs, "--out", fixture.out])
    expect(result.status).toBe(0)
    expect(result.stderr).toMatch(/read 6 items/)
    expect(result.stderr).toMatch(/episodes\s+6/)
    expect(result.stderr).toMatch(/transcripts\s+5 \(\d+ paragraphs, \d+ words\)/)
    expect(result.stderr).toMatch(/written\s+\d+ files, [\d.]+ MB/)
    expect(result.stderr).toMatch(/time\s+[\d.]+ s/)
  })

  it("with --if-stale skips a snapshot newer than its sources and rebuilds one that is older", async () => {
    const fixture = writeFixturePodcast()
    const args = ["--feed", fixture.feed, "--out", fixture.out, "--if-stale"]
    const env = { CATALOG_DIR: "" }
    expect((await run(args, env)).stderr).toContain("built")
    expect((await run(args, env)).stderr).toContain("is up to date")
    mkdirSync(dirname(join(fixture.root, "transcripts/new.txt")), { recursive: true })
    writeFileSync(join(fixture.root, "transcripts/new.txt"), "touched")
    expect((await run(args, env)).stderr).toContain("built")
  }, 120_000)
})
