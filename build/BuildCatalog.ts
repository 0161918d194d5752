// The catalog compiler: feed + transcripts + docs → one verified, content-hashed snapshot folder.
// read → parse and validate → build records → index → write. Every input problem becomes a
// BuildError naming the file (and line and item where known) before anything is written.
import { readdir, readFile } from "node:fs/promises"
import { basename, dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { DocCollection, DocPage } from "../src/catalog/domain/DocPage.js"
import { type Chapter, type Episode, EpisodeDetail } from "../src/catalog/domain/Episode.js"
import {
  SnapshotCollections,
  SnapshotCounts,
  SnapshotFile,
  SnapshotIndexes,
  SnapshotManifest
} from "../src/catalog/domain/Manifest.js"
import { EpisodeCollection, SearchData } from "../src/catalog/domain/SearchData.js"
import { type Transcript, TranscriptDetail, type TranscriptFormat } from "../src/catalog/domain/Transcript.js"
import { BuildError } from "./BuildError.js"
import { parseChapters } from "./Chapters.js"
import { type Feed, type FeedChannel, type FeedItem, type FeedLink, parseFeed } from "./Feed.js"
import { buildIndexes, type ExportedIndex } from "./Indexes.js"
import {
  type EpisodeSource,
  makeEpisode,
  makeTranscript,
  sha256Hex,
  type TranscriptInput
} from "./Records.js"
import { assignIdentities } from "./Slugs.js"
import { stageSnapshot } from "./SnapshotWriter.js"
import { parseTranscript, transcriptFormat } from "./transcripts/TranscriptParser.js"

export interface BuildOptions {
  readonly feed: string
  /** Folder of Markdown documentation pages, or undefined for none. */
  readonly docs: string | undefined
  readonly out: string
  /** The public URL of the API, for the absolute links in records. */
  readonly baseUrl: string
  /** Seconds since the epoch to record as `builtAt`; else the newest episode's date. */
  readonly sourceDateEpoch: number | undefined
  readonly progress: (message: string) => void
}

export interface BuildSummary {
  readonly out: string
  readonly snapshotId: string
  readonly episodes: number
  readonly transcripts: number
  readonly paragraphs: number
  readonly words: number
  readonly docs: number
  readonly files: number
  readonly bytes: number
  readonly indexBytes: number
  readonly remoteChaptersSkipped: number
  readonly milliseconds: number
}

const readText = (file: string, context: { readonly item?: string; readonly what: string }) =>
  Effect.tryPromise({
    try: () => readFile(file, "utf8"),
    catch: (error) =>
      new BuildError({
        file,
        item: context.item,
        reason: `cannot read ${context.what}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : String(error)}`
      })
  })

/** The local file a feed link names: relative to the feed's folder, or a file: URL. */
const localPath = (feedFile: string, url: string): string | undefined => {
  if (url.startsWith("file:")) return fileURLToPath(url)
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return undefined
  return resolve(dirname(feedFile), decodeURIComponent(url.split(/[?#]/)[0] ?? url))
}

/** When an item lists several transcripts, the one with the most structure wins. */
const formatPreference: ReadonlyArray<TranscriptFormat> = ["json", "vtt", "srt", "markdown", "text"]

const chooseTranscript = (links: ReadonlyArray<FeedLink>) => {
  let best: { link: FeedLink; format: TranscriptFormat } | undefined
  for (const link of links) {
    const format = transcriptFormat(link.type, link.url)
    if (format === undefined) continue
    if (best === undefined || formatPreference.indexOf(format) < formatPreference.indexOf(best.format)) {
      best = { link, format }
    }
  }
  return best
}

interface LoadedItem {
  readonly source: EpisodeSource
  readonly transcript: TranscriptInput | undefined
  readonly remoteChapters: boolean
}

const loadItem = (
  feedFile: string,
  channel: FeedChannel,
  item: FeedItem,
  source: Omit<EpisodeSource, "chapters">
): Effect.Effect<LoadedItem, BuildError> =>
  Effect.gen(function* () {
    const inItem = { file: feedFile, line: item.line, item: item.title }
    let chapters: ReadonlyArray<Chapter> = []
    let remoteChapters = false
    if (item.chapters !== undefined) {
      const path = localPath(feedFile, item.chapters.url)
      if (path === undefined) {
        // Chapters are optional enrichment and the build works offline: remote ones are counted, not fetched.
        remoteChapters = true
      } else {
        const text = yield* readText(path, { item: item.title, what: "the chapters file" })
        chapters = yield* Either.mapLeft(
          parseChapters(text),
          (reason) => new BuildError({ file: path, item: item.title, reason })
        )
      }
    }
    const chosen = chooseTranscript(item.transcripts)
    if (item.transcripts.length > 0 && chosen === undefined) {
      return yield* new BuildError({
        ...inItem,
        line: item.transcripts[0]?.line,
        reason: `no transcript in a known format (types: ${item.transcripts.map((link) => link.type ?? "none").join(", ")})`
      })
    }
    let transcript: TranscriptInput | undefined
    if (chosen !== undefined) {
      const path = localPath(feedFile, chosen.link.url)
      if (path === undefined) {
        return yield* new BuildError({
          ...inItem,
          line: chosen.link.line,
          reason: `the transcript ${chosen.link.url} is not a local file; the build reads transcripts relative to the feed`
        })
      }
      const text = yield* readText(path, { item: item.title, what: "the transcript" })
      const parsed = yield* Either.mapLeft(
        parseTranscript(chosen.format, text),
        (error) =>
          new BuildError({
            file: path,
            line: error.line,
            item: item.title,
            reason: `${chosen.format} transcript: ${error.message}`
          })
      )
      transcript = {
        parsed,
        sourceUrl: new URL(chosen.link.url, channel.selfUrl ?? channel.link).href,
        language: chosen.link.language ?? channel.language
      }
    }
    return { source: { ...source, chapters }, transcript, remoteChapters }
  })

const readDocs = (folder: string) =>
  Effect.gen(function* () {
    const names = yield* Effect.tryPromise({
      try: () => readdir(folder),
      catch: (error) =>
        new BuildError({ file: folder, reason: `cannot read the docs folder: ${String(error)}` })
    })
    return yield* Effect.forEach(
      names.filter((name) => name.endsWith(".md")).sort(),
      (name) =>
        Effect.map(readText(join(folder, name), { what: "a documentation page" }), (text) => {
          const title = /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? basename(name, ".md")
          return new DocPage({ path: name, title, text })
        }),
      { concurrency: 8 }
    )
  })

const json = <A, I>(schema: Schema.Schema<A, I>, value: A) => JSON.stringify(Schema.encodeSync(schema)(value))

const byNewest = (a: FeedItem, b: FeedItem) =>
  b.publishedAt.getTime() - a.publishedAt.getTime() || a.position - b.position

const readFeed = (file: string) =>
  Effect.flatMap(readText(file, { what: "the feed" }), (text) =>
    Either.mapLeft(
      parseFeed(text),
      (problem) => new BuildError({ file, line: problem.line, item: problem.item, reason: problem.message })
    )
  )

export const buildCatalog = (options: BuildOptions): Effect.Effect<BuildSummary, BuildError> =>
  Effect.gen(function* () {
    const started = Date.now()
    const feedFile = resolve(options.feed)
    const feed: Feed = yield* readFeed(feedFile)
    const { channel } = feed
    options.progress(`read ${feed.items.length} items from ${options.feed}`)

    const identities = yield* Either.mapLeft(
      assignIdentities(feed.items),
      (duplicate) =>
        new BuildError({
          file: feedFile,
          line: duplicate.second.line,
          item: duplicate.second.title,
          reason: `duplicate slug "${duplicate.slug}": session ${duplicate.session} already has episode ${duplicate.slug} ("${duplicate.first.title}", line ${duplicate.first.line})`
        })
    )
    const ordered = feed.items
      .map((item, index) => ({ item, identity: identities[index] }))
      .sort((a, b) => byNewest(a.item, b.item))

    let loadedCount = 0
    const withTranscripts = ordered.filter(({ item }) => item.transcripts.length > 0).length
    const loaded = yield* Effect.forEach(
      ordered,
      ({ item, identity }) =>
        Effect.tap(
          loadItem(feedFile, channel, item, { item, identity: identity as NonNullable<typeof identity> }),
          (result) => {
            if (result.transcript !== undefined && ++loadedCount % 100 === 0) {
              options.progress(`parsed ${loadedCount}/${withTranscripts} transcripts`)
            }
          }
        ),
      { concurrency: 8 }
    )
    const docs = options.docs === undefined ? [] : yield* readDocs(options.docs)

    const staged = stageSnapshot(resolve(options.out))
    const episodes: Array<Episode> = []
    const transcripts: Array<Transcript> = []
    const episodePaths: Record<string, string> = {}
    const transcriptPaths: Record<string, string> = {}
    for (const { source, transcript } of loaded) {
      const inItem = { file: feedFile, line: source.item.line, item: source.item.title }
      const built = yield* Effect.try({
        try: () => {
          const record =
            transcript === undefined
              ? undefined
              : makeTranscript(channel, source, transcript, options.baseUrl)
          const path =
            record === undefined
              ? undefined
              : staged.addJson(
                  "transcripts",
                  record.slug,
                  json(TranscriptDetail, new TranscriptDetail({ data: record, schemaVersion: "1" }))
                )
          const episode = makeEpisode(
            channel,
            source,
            record && path ? { record, path } : undefined,
            options.baseUrl
          )
          return { record, path, episode }
        },
        catch: (error) =>
          new BuildError({
            ...inItem,
            reason: `invalid episode: ${error instanceof Error ? error.message : String(error)}`
          })
      })
      episodes.push(built.episode)
      episodePaths[built.episode.slug] = staged.addJson(
        "episodes",
        built.episode.slug,
        json(EpisodeDetail, new EpisodeDetail({ data: built.episode, schemaVersion: "1" }))
      )
      if (built.record && built.path) {
        transcripts.push(built.record)
        transcriptPaths[built.record.slug] = built.path
      }
    }
    options.progress(
      `built ${episodes.length} episodes and ${transcripts.length} transcripts in ${((Date.now() - started) / 1000).toFixed(1)} s; indexing`
    )

    const indexes = yield* Effect.promise(() => buildIndexes(episodes, transcripts, docs, options.progress))
    const addIndex = (name: string, chunks: ExportedIndex) =>
      chunks.map(([key, data]) => [key, staged.addJson("index", `${name}-${key}`, data)] as const)
    const indexFiles = new SnapshotIndexes({
      episodes: addIndex("episodes", indexes.episodes),
      paragraphs: addIndex("paragraphs", indexes.paragraphs),
      docs: addIndex("docs", indexes.docs)
    })
    const collections = new SnapshotCollections({
      episodes: staged.addJson(
        "catalog",
        "episodes",
        json(EpisodeCollection, new EpisodeCollection({ data: episodes, schemaVersion: "1" }))
      ),
      searchData: staged.addJson("catalog", "search-data", json(SearchData, indexes.searchData)),
      docs: staged.addJson(
        "catalog",
        "docs",
        json(DocCollection, new DocCollection({ data: docs, schemaVersion: "1" }))
      )
    })

    options.progress(`indexed in ${((Date.now() - started) / 1000).toFixed(1)} s; writing`)
    const written = yield* Effect.tryPromise({
      try: () => staged.writeFiles(options.progress),
      catch: (error) =>
        new BuildError({ file: options.out, reason: `cannot write the snapshot: ${String(error)}` })
    }).pipe(Effect.tapError(() => Effect.promise(() => staged.discard())))
    const newest = episodes[0]?.publishedAt ?? new Date(0).toISOString()
    const builtAt =
      options.sourceDateEpoch === undefined ? newest : new Date(options.sourceDateEpoch * 1000).toISOString()
    const files = Object.fromEntries(
      Object.entries(written).map(([path, entry]) => [path, new SnapshotFile(entry)])
    )
    const words = transcripts.reduce((sum, transcript) => sum + transcript.source.wordCount, 0)
    const manifest = new SnapshotManifest({
      id: sha256Hex(JSON.stringify({ builtAt, baseUrl: options.baseUrl, files: written })),
      builtAt,
      schemaVersion: "1",
      baseUrl: options.baseUrl,
      episodes: episodePaths,
      transcripts: transcriptPaths,
      index: [...indexFiles.episodes, ...indexFiles.paragraphs, ...indexFiles.docs].map(([, path]) => path),
      indexes: indexFiles,
      collections,
      counts: new SnapshotCounts({
        episodes: episodes.length,
        transcripts: transcripts.length,
        paragraphs: indexes.searchData.statistics.paragraphs,
        words,
        docs: docs.length
      }),
      files
    })
    yield* Effect.tryPromise({
      try: () => staged.commit(json(SnapshotManifest, manifest)),
      catch: (error) =>
        new BuildError({ file: options.out, reason: `cannot write the snapshot: ${String(error)}` })
    }).pipe(Effect.tapError(() => Effect.promise(() => staged.discard())))

    const indexPaths = new Set(manifest.index)
    return {
      out: resolve(options.out),
      snapshotId: manifest.id,
      episodes: episodes.length,
      transcripts: transcripts.length,
      paragraphs: indexes.searchData.statistics.paragraphs,
      words,
      docs: docs.length,
      files: Object.keys(written).length + 3,
      bytes: Object.values(written).reduce((sum, entry) => sum + entry.bytes, 0),
      indexBytes: Object.entries(written).reduce(
        (sum, [path, entry]) => sum + (indexPaths.has(path) ? entry.bytes : 0),
        0
      ),
      remoteChaptersSkipped: loaded.filter((item) => item.remoteChapters).length,
      milliseconds: Date.now() - started
    }
  })
