// The snapshot manifest: the one small file that names every other file of a snapshot. Served as
// is by `GET /v1/snapshot` (catalog-extensions §6) and read by the Catalog layer at start-up.
import * as Schema from "effect/Schema"
import { documented } from "../../http/OpenApiDocument.js"
import { searchEntryPath } from "../search/StaticSearchLayout.js"

const Sha256 = Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/))
/** What a path relative to the snapshot root looks like, e.g. `episodes/12.3fa41c0d9e2b7a55.json`. */
const snapshotPathPattern = /^[a-z]+(\/[A-Za-z0-9._-]+)+$/
const SnapshotPath = Schema.String.pipe(Schema.pattern(snapshotPathPattern))

/**
 * `[key, path]`: one exported chunk of a search index. Its JSON Schema keeps `prefixItems` for the
 * two places but says `items: { type: string }` and two items at most instead of `items: false`:
 * the same values under JSON Schema 2020-12, and draft-07 validators (Prism 5.14 reads referenced
 * schemas so) see two strings instead of refusing every element.
 */
const IndexChunk = Schema.Tuple(Schema.String, SnapshotPath).annotations({
  jsonSchema: {
    type: "array",
    title: "Index chunk",
    description: "[key, path]: the export key of one chunk of a search index and its file in the snapshot.",
    prefixItems: [
      { type: "string", title: "Key", description: "The key FlexSearch exported the chunk under." },
      { type: "string", title: "Path", description: "The chunk's file.", pattern: snapshotPathPattern.source }
    ],
    items: { type: "string" },
    minItems: 2,
    maxItems: 2
  }
})

export class SnapshotFile extends Schema.Class<SnapshotFile>("SnapshotFile")({
  sha256: Sha256,
  bytes: Schema.Int.pipe(Schema.nonNegative(), documented("Bytes", "The file's size in bytes: non-negative."))
}) {}

export class SnapshotCounts extends Schema.Class<SnapshotCounts>("SnapshotCounts")({
  episodes: Schema.Int,
  transcripts: Schema.Int,
  paragraphs: Schema.Int,
  words: Schema.Int,
  docs: Schema.Int
}) {}

export class SnapshotCollections extends Schema.Class<SnapshotCollections>("SnapshotCollections")({
  /** Every episode, newest first: `{ data: Episode[], schemaVersion }`. */
  episodes: SnapshotPath,
  /** How paragraph ids of the transcript index map to transcripts, and the statistics ranking uses. */
  searchData: SnapshotPath,
  /** The documentation pages: `{ data: DocPage[], schemaVersion }`. */
  docs: SnapshotPath
}) {}

export class SnapshotIndexes extends Schema.Class<SnapshotIndexes>("SnapshotIndexes")({
  /** Exported FlexSearch chunks, by index name, as `[key, path]` pairs in export order. */
  episodes: Schema.Array(IndexChunk),
  paragraphs: Schema.Array(IndexChunk),
  docs: Schema.Array(IndexChunk)
}) {}

/** The version of the snapshot's format (content/docs/snapshot.md); a reader refuses one it does not know. */
export const snapshotFormatVersion = "1"

/**
 * The JSON Schema of each kind of file (SnapshotFormat.ts), as files of the snapshot. The kinds of
 * the static search files came later in formatVersion 1 (adding files is compatible): a manifest
 * without them is still a version 1 manifest.
 */
export class SnapshotSchemas extends Schema.Class<SnapshotSchemas>("SnapshotSchemas")({
  manifest: SnapshotPath,
  episode: SnapshotPath,
  transcript: SnapshotPath,
  episodes: SnapshotPath,
  searchData: SnapshotPath,
  docs: SnapshotPath,
  indexMap: SnapshotPath,
  indexRegister: SnapshotPath,
  searchEntry: Schema.optional(SnapshotPath),
  episodeSearch: Schema.optional(SnapshotPath),
  transcriptSearch: Schema.optional(SnapshotPath),
  episodeShard: Schema.optional(SnapshotPath),
  paragraphShard: Schema.optional(SnapshotPath),
  paragraphPostings: Schema.optional(SnapshotPath),
  textBlock: Schema.optional(SnapshotPath),
  lengthBlock: Schema.optional(SnapshotPath),
  searchFiles: Schema.optional(SnapshotPath)
}) {}

/**
 * The static search files (domain/StaticSearch.ts): read by a reader with no server, not by the
 * service, so they are not in `files` (the service reads every file there at start-up) but in a
 * table of their own, which is.
 */
export class SnapshotSearch extends Schema.Class<SnapshotSearch>("SnapshotSearch")({
  entry: Schema.Literal(searchEntryPath),
  episodes: SnapshotPath,
  transcripts: SnapshotPath,
  /** Every static search file with its hash and size. */
  files: SnapshotPath
}) {}

export class SnapshotManifest extends Schema.Class<SnapshotManifest>("SnapshotManifest")({
  /** Hash of the snapshot's content: equal ids mean equal snapshots. */
  id: Sha256,
  builtAt: Schema.String.pipe(Schema.annotations({ format: "date-time" })),
  /** The version of the snapshot's format: how its files are laid out and what they hold. */
  formatVersion: Schema.Literal(snapshotFormatVersion),
  /** The version of the records' schemas (the API's `schemaVersion`). */
  schemaVersion: Schema.Literal("1"),
  /** Episode detail files by slug. */
  episodes: Schema.Record({ key: Schema.String, value: SnapshotPath }),
  /** Transcript detail files by slug (only episodes that have one). */
  transcripts: Schema.Record({ key: Schema.String, value: SnapshotPath }),
  /** Every file of the prebuilt search indexes. */
  index: Schema.Array(SnapshotPath),
  indexes: SnapshotIndexes,
  collections: SnapshotCollections,
  counts: SnapshotCounts,
  schemas: SnapshotSchemas,
  /** The static search files (added within formatVersion 1: absent from snapshots built before). */
  search: Schema.optional(SnapshotSearch),
  /**
   * Every file of the snapshot but the manifest and the static search files, with its hash; each
   * JSON file also has `.gz` and `.br` copies.
   */
  files: Schema.Record({ key: Schema.String, value: SnapshotFile })
}) {}
