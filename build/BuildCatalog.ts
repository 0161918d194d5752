// The catalog compiler: feed + transcripts + docs → one verified, content-hashed snapshot folder,
// as a pipeline of steps with one job each: read the feed and its items' files (ReadFeed, ReadItem,
// ReadDocs), compile the records (CompileRecords), build the indexes (Indexes), stage the search
// files (StageSearchFiles) and the JSON Schemas (StageSchemas), write the static search files
// (StaticSearch) and the search page that reads them (SearchPage), then the rest (WriteSnapshot,
// MakeManifest).
// Every input problem becomes a BuildError naming the file (and line and item where known) before
// anything is written.
import { resolve } from "node:path"
import * as Effect from "effect/Effect"
import { episodeStatistics } from "../src/catalog/search/EpisodeRanking.js"
import { BuildError } from "./BuildError.js"
import { compileRecords } from "./CompileRecords.js"
import { buildIndexes } from "./Indexes.js"
import { makeManifest, wordsOf } from "./MakeManifest.js"
import { readDocs } from "./ReadDocs.js"
import { identifyItems, readFeed } from "./ReadFeed.js"
import { readItem } from "./ReadItem.js"
import { writeSearchPage } from "./SearchPage.js"
import { stageSnapshot } from "./SnapshotWriter.js"
import { stageSchemas } from "./StageSchemas.js"
import { stageSearchFiles } from "./StageSearchFiles.js"
import { defaultStaticSearchOptions, type StaticSearchOptions, writeStaticSearch } from "./StaticSearch.js"
import { writeSnapshot } from "./WriteSnapshot.js"

export interface BuildOptions {
  readonly feed: string
  /** Folder of Markdown documentation pages, or undefined for none. */
  readonly docs: string | undefined
  readonly out: string
  /** Seconds since the epoch to record as `builtAt`; else the newest episode's date. */
  readonly sourceDateEpoch: number | undefined
  readonly progress: (message: string) => void
  /** Where the static search files split frequent terms (tests lower it); the defaults otherwise. */
  readonly staticSearch?: StaticSearchOptions
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
  /** The static search files (not in the manifest's `files`), their gzip copies included. */
  readonly staticSearchFiles: number
  readonly staticSearchBytes: number
  readonly remoteChaptersSkipped: number
  readonly milliseconds: number
}

const seconds = (started: number) => ((Date.now() - started) / 1000).toFixed(1)

export const buildCatalog = (options: BuildOptions): Effect.Effect<BuildSummary, BuildError> =>
  Effect.gen(function* () {
    const started = Date.now()
    const feedFile = resolve(options.feed)
    const feed = yield* readFeed(feedFile)
    options.progress(`read ${feed.items.length} items from ${options.feed}`)
    const items = yield* identifyItems(feedFile, feed)

    let transcriptsRead = 0
    const withTranscripts = items.filter(({ item }) => item.transcripts.length > 0).length
    const read = yield* Effect.forEach(
      items,
      (item) =>
        Effect.tap(readItem(feedFile, feed.channel, item), (result) => {
          if (result.transcript !== undefined && ++transcriptsRead % 100 === 0) {
            options.progress(`parsed ${transcriptsRead}/${withTranscripts} transcripts`)
          }
        }),
      { concurrency: 8 }
    )
    const docs = options.docs === undefined ? [] : yield* readDocs(options.docs)

    const staged = stageSnapshot(resolve(options.out))
    const records = yield* compileRecords(feedFile, feed.channel, read, staged)
    options.progress(
      `built ${records.episodes.length} episodes and ${records.transcripts.length} transcripts in ${seconds(started)} s; indexing`
    )

    const indexes = yield* Effect.promise(() =>
      buildIndexes(records.episodes, records.transcripts, docs, options.progress)
    )
    const searchFiles = stageSearchFiles(staged, indexes, records.episodes, docs)
    const schemas = stageSchemas(staged)
    const paragraphs = indexes.searchData.statistics.paragraphs

    options.progress(`indexed in ${seconds(started)} s; writing`)
    const staticSearch = yield* Effect.tryPromise({
      try: () =>
        writeStaticSearch(
          staged,
          {
            episodes: records.episodes,
            episodePaths: records.episodePaths,
            transcripts: records.transcripts,
            indexes,
            episodeStatistics: episodeStatistics(records.episodes),
            options: options.staticSearch ?? defaultStaticSearchOptions
          },
          options.progress
        ).then(async (written) => {
          await writeSearchPage(staged, feed.channel.title)
          return written
        }),
      catch: (error) =>
        new BuildError({
          file: options.out,
          reason: `cannot write the static search files and page: ${String(error)}`
        })
    }).pipe(Effect.tapError(() => Effect.promise(() => staged.discard())))
    const staticSearchTable = staged.searchFiles()
    const searchTablePath = staged.addJson("catalog", "search-files", JSON.stringify(staticSearchTable))
    const { manifest, written } = yield* writeSnapshot(staged, options.out, options.progress, (written) =>
      makeManifest({
        sourceDateEpoch: options.sourceDateEpoch,
        records,
        searchFiles,
        schemas,
        search: { ...staticSearch, files: searchTablePath },
        paragraphs,
        docs: docs.length,
        written
      })
    )

    const indexPaths = new Set(manifest.index)
    return {
      out: resolve(options.out),
      snapshotId: manifest.id,
      episodes: records.episodes.length,
      transcripts: records.transcripts.length,
      paragraphs,
      words: wordsOf(records),
      docs: docs.length,
      files: Object.keys(written).length + 3,
      bytes: Object.values(written).reduce((sum, entry) => sum + entry.bytes, 0),
      indexBytes: Object.entries(written).reduce(
        (sum, [path, entry]) => sum + (indexPaths.has(path) ? entry.bytes : 0),
        0
      ),
      staticSearchFiles: Object.keys(staticSearchTable).length,
      staticSearchBytes: Object.values(staticSearchTable).reduce((sum, entry) => sum + entry.bytes, 0),
      remoteChaptersSkipped: read.filter((item) => item.remoteChapters).length,
      milliseconds: Date.now() - started
    }
  })
