// The snapshot as a documented format (catalog-extensions §6, content/docs/snapshot.md): its version,
// and the schema of every kind of file in it. The JSON Schemas the build ships in the snapshot
// (`schemas/`) are derived from these, so the files, the service's decoding and the published
// schemas cannot disagree.
import * as JSONSchema from "effect/JSONSchema"
import * as Schema from "effect/Schema"
import { DocCollection } from "./DocPage.js"
import { EpisodeDetail } from "./Episode.js"
import { SnapshotManifest, type SnapshotSchemas } from "./Manifest.js"
import { EpisodeCollection, SearchData } from "./SearchData.js"
import {
  EpisodeSearchMeta,
  EpisodeShard,
  LengthBlock,
  ParagraphPostings,
  ParagraphShard,
  SearchEntry,
  SearchFileTable,
  TextBlock,
  TranscriptSearchMeta
} from "./StaticSearch.js"
import { TranscriptDetail } from "./Transcript.js"

/**
 * A chunk of an exported FlexSearch index field (`<field>.<n>.map`): `[term, slots]` entries, where
 * `slots[r]` lists the ids whose term sits at resolution slot `r` (lower is earlier in the text),
 * ids ascending; `null` for an empty slot.
 */
export const IndexMapChunk = Schema.Array(
  Schema.Tuple(Schema.String, Schema.Array(Schema.NullOr(Schema.Array(Schema.Int))))
).annotations({
  identifier: "IndexMapChunk",
  title: "FlexSearch map chunk",
  description:
    "[term, slots] entries of one field of an exported FlexSearch 0.8 index: slots[r] are the ids with the term at resolution slot r (null when none)."
})

/** A chunk of an exported FlexSearch index's register (`<n>.reg`): the ids it holds. */
export const IndexRegisterChunk = Schema.Array(Schema.Int).annotations({
  identifier: "IndexRegisterChunk",
  title: "FlexSearch register chunk",
  description: "The ids an exported FlexSearch 0.8 index holds."
})

/** Every kind of file in a snapshot, by the name its JSON Schema is published under. */
export const snapshotFileSchemas = {
  manifest: SnapshotManifest,
  episode: EpisodeDetail,
  transcript: TranscriptDetail,
  episodes: EpisodeCollection,
  searchData: SearchData,
  docs: DocCollection,
  indexMap: IndexMapChunk,
  indexRegister: IndexRegisterChunk,
  searchEntry: SearchEntry,
  episodeSearch: EpisodeSearchMeta,
  transcriptSearch: TranscriptSearchMeta,
  episodeShard: EpisodeShard,
  paragraphShard: ParagraphShard,
  paragraphPostings: ParagraphPostings,
  textBlock: TextBlock,
  lengthBlock: LengthBlock,
  searchFiles: SearchFileTable
} as const

export type SnapshotFileKind = keyof typeof snapshotFileSchemas

// The manifest names one schema file per kind, no more and no fewer.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const manifestNamesEveryKind: Same<SnapshotFileKind, keyof typeof SnapshotSchemas.Type> = true
void manifestNamesEveryKind

/**
 * The JSON Schema (2020-12) of a kind of file, as the snapshot ships it. Objects allow members the
 * schema does not name: later builds of the same formatVersion may add some (a reader ignores what it
 * does not know), and a file written so still passes an earlier build's schema.
 */
export const jsonSchemaOf = (kind: SnapshotFileKind): JSONSchema.JsonSchema7Root => {
  const schema: Schema.Schema<unknown, unknown> = snapshotFileSchemas[kind] as unknown as Schema.Schema<
    unknown,
    unknown
  >
  // JSONSchema.make without its `additionalPropertiesStrategy`, which only fromAST takes.
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  const root = JSONSchema.fromAST(schema.ast, {
    definitions,
    target: "jsonSchema2020-12",
    additionalPropertiesStrategy: "allow"
  })
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    ...(Object.keys(definitions).length > 0 ? { $defs: definitions } : {}),
    ...root,
    title: `Snapshot ${kind} file`
  } as JSONSchema.JsonSchema7Root
}
