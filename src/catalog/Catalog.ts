// The Catalog service: the loaded snapshot, read once at start-up with every file checked against
// the manifest's hash, details kept as prepared responses (bytes + ETags per encoding), the
// prebuilt indexes imported. Each step of loading lives in snapshot/; everything the catalog's
// surfaces answer comes from here, nothing is computed from content/.
import { resolve } from "node:path"
import * as Arr from "effect/Array"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { NotFound } from "../http/ApiError.js"
import type { PreparedResponse } from "../http/PreparedResponse.js"
import { CatalogConfig } from "./CatalogConfig.js"
import { DocCollection, type DocPage } from "./domain/DocPage.js"
import type { Episode } from "./domain/Episode.js"
import type { SnapshotManifest } from "./domain/Manifest.js"
import { EpisodeCollection, SearchData } from "./domain/SearchData.js"
import type { Transcript } from "./domain/Transcript.js"
import type { DocIndex, EpisodeIndex, ParagraphIndex } from "./SearchOptions.js"
import { CatalogLoadError } from "./snapshot/CatalogLoadError.js"
import { withOrigin } from "./snapshot/OriginBytes.js"
import type { ParagraphTerms } from "./snapshot/ParagraphTerms.js"
import { prepareResponses } from "./snapshot/PreparedResponses.js"
import { readManifest } from "./snapshot/ReadManifest.js"
import { importSearchIndexes } from "./snapshot/SearchIndexes.js"
import { makeTranscriptRecords, type TranscriptRecord } from "./snapshot/TranscriptRecords.js"
import { readVerifiedFiles } from "./snapshot/VerifiedFiles.js"

export { cacheControl } from "./CacheControl.js"
export { CatalogLoadError } from "./snapshot/CatalogLoadError.js"
export type { ParagraphRecord, TranscriptRecord } from "./snapshot/TranscriptRecords.js"

export interface CatalogService {
  readonly directory: string
  /** The origin this instance answers from (PUBLIC_ORIGIN): the start of every link it answers. */
  readonly origin: string
  readonly manifest: SnapshotManifest
  /** Every episode, newest first. */
  readonly episodes: ReadonlyArray<Episode>
  readonly episode: (slug: string) => Episode | undefined
  readonly transcriptRecord: (slug: string) => TranscriptRecord | undefined
  /** Every transcript paragraph's search terms as numbers (a transcript's once its record is read). */
  readonly paragraphTerms: ParagraphTerms
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

/**
 * One synchronous step of loading, traced as its own span. A step stops with a CatalogLoadError
 * naming the file; anything else it throws (unreadable bytes, an index that will not import) is
 * reported as a load error of the folder as it was given.
 */
const step = <A>(name: string, given: string, run: () => A): Effect.Effect<A, CatalogLoadError> =>
  Effect.try({
    try: run,
    catch: (error) =>
      error instanceof CatalogLoadError
        ? error
        : new CatalogLoadError({
            directory: given,
            reason: error instanceof Error ? error.message : String(error)
          })
  }).pipe(Effect.withSpan(name))

/**
 * Reads and verifies a snapshot folder, refusing one that is missing, incomplete or corrupt; what it
 * answers links to this API on `origin`.
 */
export const loadSnapshot = Effect.fn("Catalog.load")(function* (given: string, origin: string) {
  const directory = resolve(given)
  const manifestFile = yield* step("Catalog.readManifest", given, () => readManifest(directory))
  const { manifest } = manifestFile
  const files = yield* step("Catalog.verifyFiles", given, () => readVerifiedFiles(directory, manifest))
  const responses = yield* step("Catalog.prepareResponses", given, () =>
    prepareResponses(directory, manifestFile, files, origin)
  )
  const { episodes, searchData, docs } = yield* step("Catalog.decodeCollections", given, () => ({
    episodes: files.decode(EpisodeCollection, manifest.collections.episodes, (bytes) =>
      withOrigin(bytes, origin)
    ).data,
    searchData: files.decode(SearchData, manifest.collections.searchData),
    docs: files.decode(DocCollection, manifest.collections.docs).data
  }))
  const transcripts = makeTranscriptRecords(manifest, files, origin, searchData)
  const indexes = yield* step("Catalog.importIndexes", given, () => importSearchIndexes(manifest, files))
  const episodesBySlug = new Map(episodes.map((episode) => [episode.slug, episode]))

  const service: CatalogService = {
    directory,
    origin,
    manifest,
    episodes,
    episode: (slug) => episodesBySlug.get(slug),
    transcriptRecord: transcripts.record,
    paragraphTerms: transcripts.paragraphTerms,
    // The index first, then a few transcripts at a time with a timer tick between, so requests are
    // served meanwhile.
    warmUp: Effect.sync(() => indexes.paragraphs).pipe(
      Effect.zipRight(
        Effect.forEach(
          Arr.chunksOf(Object.keys(manifest.transcripts), 8),
          (slugs) =>
            Effect.zipRight(
              Effect.sleep("1 millis"),
              Effect.sync(() => slugs.forEach(transcripts.record))
            ),
          { discard: true }
        )
      ),
      Effect.withSpan("Catalog.warmUp")
    ),
    transcript: transcripts.transcript,
    episodeResponse: responses.episode,
    transcriptResponse: responses.transcript,
    fileResponse: responses.file,
    manifestResponse: responses.manifest,
    searchData,
    docs,
    indexes
  }
  return service
})

/** Loads the snapshot; its `warmUp` is run once the server listens (see CatalogRoutes.ts). */
export const CatalogLive = Layer.effect(
  Catalog,
  Effect.flatMap(CatalogConfig, (config) => loadSnapshot(config.directory, config.publicOrigin))
)
