// The loaded snapshot: read once at start-up, every file checked against the manifest's hash,
// details kept as prepared responses (bytes + ETags per encoding), the prebuilt indexes imported.
// Everything the catalog's surfaces answer comes from here; nothing is computed from content/.
import { createHash } from "node:crypto"
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from "node:fs"
import { join, resolve } from "node:path"
import * as Arr from "effect/Array"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { NotFound } from "../http/ApiError.js"
import { etagFromSha256, type PreparedResponse, type Variant, variant } from "../http/PreparedResponse.js"
import { CatalogConfig } from "./CatalogConfig.js"
import { DocCollection, type DocPage } from "./domain/DocPage.js"
import type { Episode } from "./domain/Episode.js"
import { SnapshotManifest } from "./domain/Manifest.js"
import { EpisodeCollection, SearchData } from "./domain/SearchData.js"
import { type Transcript, TranscriptDetail } from "./domain/Transcript.js"
import {
  type DocIndex,
  type EpisodeIndex,
  makeDocIndex,
  makeEpisodeIndex,
  makeParagraphIndex,
  type ParagraphIndex
} from "./SearchOptions.js"

export class CatalogLoadError extends Data.TaggedError("CatalogLoadError")<{
  readonly directory: string
  readonly reason: string
}> {
  override get message() {
    return `cannot load the catalog snapshot at ${this.directory}: ${this.reason}`
  }
}

/** Cache-Control of each kind of catalog answer (catalog-extensions §5). */
export const cacheControl = {
  detail: "public, max-age=300, stale-while-revalidate=86400",
  collection: "public, max-age=60",
  openapi: "public, max-age=3600",
  immutable: "public, max-age=31536000, immutable"
} as const

/** What search needs of one paragraph. */
export interface ParagraphRecord {
  readonly speaker: string | null
  readonly startSeconds: number | null
  readonly text: string
}

/** What search needs of one transcript. */
export interface TranscriptRecord {
  readonly slug: string
  readonly paragraphs: ReadonlyArray<ParagraphRecord>
}

export interface CatalogService {
  readonly directory: string
  readonly manifest: SnapshotManifest
  /** Every episode, newest first. */
  readonly episodes: ReadonlyArray<Episode>
  readonly episode: (slug: string) => Episode | undefined
  readonly transcriptRecord: (slug: string) => TranscriptRecord | undefined
  /** Imports the transcript index and parses every transcript's paragraphs ahead of the searches that need them. */
  readonly warmUp: Effect.Effect<void>
  /** The full transcript record (decoded on demand from the verified bytes). */
  readonly transcript: (slug: string) => Transcript | undefined
  readonly episodeResponse: (slug: string) => PreparedResponse | undefined
  readonly transcriptResponse: (slug: string) => PreparedResponse | undefined
  /** A snapshot file by its path relative to the snapshot root (`/snapshot/{path}`). */
  readonly fileResponse: (path: string) => PreparedResponse | undefined
  readonly manifestResponse: PreparedResponse
  readonly searchData: SearchData
  readonly docs: ReadonlyArray<DocPage>
  readonly indexes: {
    readonly episodes: EpisodeIndex
    readonly paragraphs: ParagraphIndex
    readonly docs: DocIndex
  }
}

export class Catalog extends Context.Tag("Catalog")<Catalog, CatalogService>() {}

/** The 404 for a slug no episode has. */
export const episodeNotFound = (slug: string) =>
  new NotFound({ message: `No episode has the slug "${slug}".`, data: { slug } })

/** The 404 for a transcript: either the episode does not exist, or it has no local transcript. */
export const transcriptNotFound = (catalog: CatalogService, slug: string) =>
  catalog.episode(slug) === undefined
    ? episodeNotFound(slug)
    : new NotFound({
        message: `Episode ${slug} has no local transcript.`,
        data: { slug, transcriptAvailable: false }
      })

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex")

/** Fills `target` from the start of the file; returns how many bytes the file gave. */
const readInto = (path: string, target: Buffer): number => {
  const fd = openSync(path, "r")
  try {
    let filled = 0
    while (filled < target.byteLength) {
      const read = readSync(fd, target, filled, target.byteLength - filled, filled)
      if (read === 0) break
      filled += read
    }
    return filled
  } finally {
    closeSync(fd)
  }
}

const contentTypeOf = (path: string) =>
  path.endsWith(".json")
    ? "application/json"
    : path.endsWith(".gz")
      ? "application/gzip"
      : path.endsWith(".br")
        ? "application/x-brotli"
        : "application/octet-stream"

/**
 * Reads and verifies a snapshot folder. Synchronous file reads are the fastest way to pull a few
 * hundred megabytes at start-up, when nothing else is running.
 */
export const loadSnapshot = (directory: string): Effect.Effect<CatalogService, CatalogLoadError> =>
  Effect.try({
    try: () => load(resolve(directory)),
    catch: (error) =>
      error instanceof CatalogLoadError
        ? error
        : new CatalogLoadError({ directory, reason: error instanceof Error ? error.message : String(error) })
  }).pipe(Effect.withSpan("Catalog.load"))

const load = (directory: string): CatalogService => {
  const fail = (reason: string): never => {
    throw new CatalogLoadError({ directory, reason })
  }
  const manifestPath = join(directory, "manifest.json")
  if (!existsSync(manifestPath))
    fail("manifest.json is missing; build the snapshot with `npm run build:catalog`")
  const manifestBytes = readFileSync(manifestPath)
  let manifestJson: unknown
  try {
    manifestJson = JSON.parse(manifestBytes.toString("utf8"))
  } catch {
    fail("manifest.json is not JSON")
  }
  const manifest = Schema.decodeUnknownEither(SnapshotManifest)(manifestJson).pipe((result) =>
    result._tag === "Left"
      ? fail(
          `manifest.json is not a valid manifest: ${ParseResult.TreeFormatter.formatErrorSync(result.left)}`
        )
      : result.right
  )

  // Every file is read into one buffer: thousands of separate buffers make the garbage collector
  // react to each new chunk of outside memory, which cost a few hundred milliseconds of start-up.
  const entries = Object.entries(manifest.files)
  const corrupt = (path: string) =>
    fail(`${path} does not match its hash in the manifest (the snapshot is corrupt; rebuild it)`)
  for (const [path, entry] of entries) {
    const stat = statSync(join(directory, path), { throwIfNoEntry: false })
    if (stat === undefined) fail(`${path} is missing (the snapshot is incomplete; rebuild it)`)
    else if (stat.size !== entry.bytes) corrupt(path)
  }
  const arena = Buffer.allocUnsafeSlow(entries.reduce((sum, [, entry]) => sum + entry.bytes, 0))
  const files = new Map<string, Buffer>()
  let offset = 0
  for (const [path, entry] of entries) {
    const data = arena.subarray(offset, offset + entry.bytes)
    offset += entry.bytes
    if (readInto(join(directory, path), data) !== entry.bytes || sha256(data) !== entry.sha256) corrupt(path)
    files.set(path, data)
  }
  const file = (path: string): Buffer =>
    files.get(path) ?? fail(`${path} is named by the manifest but not listed in its files`)
  const decodeFile = <A, I>(schema: Schema.Schema<A, I>, path: string): A => {
    const result = Schema.decodeUnknownEither(schema)(JSON.parse(file(path).toString("utf8")))
    return result._tag === "Right"
      ? result.right
      : fail(`${path}: ${ParseResult.TreeFormatter.formatErrorSync(result.left)}`)
  }

  const hashed = (path: string): Variant | undefined => {
    const data = files.get(path)
    const entry = manifest.files[path]
    return data === undefined || entry === undefined
      ? undefined
      : { body: data, etag: etagFromSha256(entry.sha256) }
  }
  /** The JSON file at `path` with its precompressed copies. */
  const jsonResponse = (path: string, cache: string): PreparedResponse => {
    const identity = hashed(path) ?? fail(`${path} is missing from the snapshot`)
    const gzip = hashed(`${path}.gz`)
    const br = hashed(`${path}.br`)
    return {
      contentType: "application/json",
      cacheControl: cache,
      variants: { identity, ...(gzip ? { gzip } : {}), ...(br ? { br } : {}) }
    }
  }

  const episodeResponses = new Map<string, PreparedResponse>()
  for (const [slug, path] of Object.entries(manifest.episodes))
    episodeResponses.set(slug, jsonResponse(path, cacheControl.detail))
  const transcriptResponses = new Map<string, PreparedResponse>()
  for (const [slug, path] of Object.entries(manifest.transcripts)) {
    transcriptResponses.set(slug, jsonResponse(path, cacheControl.detail))
  }
  const fileResponses = new Map<string, PreparedResponse>()
  for (const path of files.keys()) {
    fileResponses.set(
      path,
      path.endsWith(".json")
        ? jsonResponse(path, cacheControl.immutable)
        : {
            contentType: contentTypeOf(path),
            cacheControl: cacheControl.immutable,
            variants: { identity: hashed(path) as Variant }
          }
    )
  }
  const readOptional = (path: string) => (existsSync(path) ? variant(readFileSync(path)) : undefined)
  const manifestGzip = readOptional(`${manifestPath}.gz`)
  const manifestBr = readOptional(`${manifestPath}.br`)
  const manifestResponse: PreparedResponse = {
    contentType: "application/json",
    cacheControl: cacheControl.collection,
    variants: {
      identity: variant(manifestBytes),
      ...(manifestGzip ? { gzip: manifestGzip } : {}),
      ...(manifestBr ? { br: manifestBr } : {})
    }
  }

  const episodes = decodeFile(EpisodeCollection, manifest.collections.episodes).data
  const episodesBySlug = new Map(episodes.map((episode) => [episode.slug, episode]))
  const searchData = decodeFile(SearchData, manifest.collections.searchData)
  const docs = decodeFile(DocCollection, manifest.collections.docs).data

  // Search reads paragraphs of many transcripts per query: they are parsed once, on first use, and
  // all of them soon after start-up by `warmUp`, so that start-up itself does not wait for them.
  const transcriptRecords = new Map<string, TranscriptRecord>()
  const transcriptRecord = (slug: string): TranscriptRecord | undefined => {
    const known = transcriptRecords.get(slug)
    if (known !== undefined) return known
    const path = manifest.transcripts[slug]
    if (path === undefined) return undefined
    const json = JSON.parse(file(path).toString("utf8")) as {
      data: { paragraphs: Array<{ speaker: string | null; startSeconds: number | null; text: string }> }
    }
    const record = {
      slug,
      paragraphs: json.data.paragraphs.map((p) => ({
        speaker: p.speaker,
        startSeconds: p.startSeconds,
        text: p.text
      }))
    }
    transcriptRecords.set(slug, record)
    return record
  }
  const decodeTranscript = Schema.decodeUnknownSync(TranscriptDetail)
  const transcriptCache = new Map<string, Transcript>()

  const importIndex = <I extends { import: (key: string, data: string) => unknown }>(
    index: I,
    chunks: ReadonlyArray<readonly [string, string]>
  ): I => {
    for (const [key, path] of chunks) index.import(key, file(path).toString("utf8"))
    return index
  }

  // The transcript index is the largest part of a snapshot; importing it waits for the first search
  // or the warm-up after start-up, whichever comes first.
  let paragraphs: ParagraphIndex | undefined
  const paragraphIndex = (): ParagraphIndex => {
    paragraphs ??= importIndex(makeParagraphIndex(), manifest.indexes.paragraphs)
    return paragraphs
  }

  return {
    directory,
    manifest,
    episodes,
    episode: (slug) => episodesBySlug.get(slug),
    transcriptRecord,
    // The index first, then a few transcripts at a time with a timer tick between, so requests are
    // served meanwhile.
    warmUp: Effect.sync(paragraphIndex).pipe(
      Effect.zipRight(
        Effect.forEach(
          Arr.chunksOf(Object.keys(manifest.transcripts), 8),
          (slugs) =>
            Effect.zipRight(
              Effect.sleep("1 millis"),
              Effect.sync(() => slugs.forEach(transcriptRecord))
            ),
          { discard: true }
        )
      ),
      Effect.withSpan("Catalog.warmUp")
    ),
    transcript: (slug) => {
      const cached = transcriptCache.get(slug)
      if (cached) return cached
      const path = manifest.transcripts[slug]
      if (path === undefined) return undefined
      const transcript = decodeTranscript(JSON.parse(file(path).toString("utf8"))).data
      // A handful of recent transcripts is enough to make repeated reads cheap.
      if (transcriptCache.size >= 32) transcriptCache.delete(transcriptCache.keys().next().value as string)
      transcriptCache.set(slug, transcript)
      return transcript
    },
    episodeResponse: (slug) => episodeResponses.get(slug),
    transcriptResponse: (slug) => transcriptResponses.get(slug),
    fileResponse: (path) => fileResponses.get(path),
    manifestResponse,
    searchData,
    docs,
    indexes: {
      episodes: importIndex(makeEpisodeIndex(), manifest.indexes.episodes),
      get paragraphs() {
        return paragraphIndex()
      },
      docs: importIndex(makeDocIndex(), manifest.indexes.docs)
    }
  }
}

/** Loads the snapshot; its `warmUp` is run once the server listens (see CatalogRoutes.ts). */
export const CatalogLive = Layer.effect(
  Catalog,
  Effect.flatMap(CatalogConfig, (config) => loadSnapshot(config.directory))
)
