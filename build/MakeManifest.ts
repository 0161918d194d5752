// The snapshot's manifest: every written file with its hash and size, where each record, index
// chunk and collection is, and the counts. Its id is the hash of the content, so the same input
// gives the same id.
import {
  SnapshotCounts,
  SnapshotFile,
  SnapshotManifest,
  type SnapshotSchemas,
  SnapshotSearch,
  snapshotFormatVersion
} from "../src/catalog/domain/Manifest.js"
import { searchEntryPath } from "../src/catalog/search/StaticSearchLayout.js"
import type { CompiledRecords } from "./CompileRecords.js"
import { sha256Hex } from "./Records.js"
import type { SnapshotEntry } from "./SnapshotWriter.js"
import type { StagedSearchFiles } from "./StageSearchFiles.js"

export interface ManifestInput {
  /** Seconds since the epoch to record as `builtAt`; else the newest episode's date. */
  readonly sourceDateEpoch: number | undefined
  readonly records: CompiledRecords
  readonly searchFiles: StagedSearchFiles
  readonly schemas: SnapshotSchemas
  /** Where the static search files are described and listed. */
  readonly search: { readonly episodes: string; readonly transcripts: string; readonly files: string }
  readonly paragraphs: number
  readonly docs: number
  /** The written files' table. */
  readonly written: Readonly<Record<string, SnapshotEntry>>
}

/** Words of every transcript. */
export const wordsOf = (records: CompiledRecords) =>
  records.transcripts.reduce((sum, transcript) => sum + transcript.source.wordCount, 0)

export const makeManifest = ({
  sourceDateEpoch,
  records,
  searchFiles,
  schemas,
  search,
  paragraphs,
  docs,
  written
}: ManifestInput): SnapshotManifest => {
  const newest = records.episodes[0]?.publishedAt ?? new Date(0).toISOString()
  const builtAt = sourceDateEpoch === undefined ? newest : new Date(sourceDateEpoch * 1000).toISOString()
  const files = Object.fromEntries(
    Object.entries(written).map(([path, entry]) => [path, new SnapshotFile(entry)])
  )
  const { indexes } = searchFiles
  return new SnapshotManifest({
    id: sha256Hex(JSON.stringify({ builtAt, files: written })),
    builtAt,
    formatVersion: snapshotFormatVersion,
    schemaVersion: "1",
    episodes: records.episodePaths,
    transcripts: records.transcriptPaths,
    index: [...indexes.episodes, ...indexes.paragraphs, ...indexes.docs].map(([, path]) => path),
    indexes,
    collections: searchFiles.collections,
    counts: new SnapshotCounts({
      episodes: records.episodes.length,
      transcripts: records.transcripts.length,
      paragraphs,
      words: wordsOf(records),
      docs
    }),
    schemas,
    search: new SnapshotSearch({ entry: searchEntryPath, ...search }),
    files
  })
}
