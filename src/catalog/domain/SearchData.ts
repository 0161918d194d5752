// What the server needs beside the exported FlexSearch indexes to answer searches: which paragraph
// ids belong to which transcript, and the term statistics that `relevance` is computed from.
import * as Schema from "effect/Schema"
import { Episode, SchemaVersion, Slug } from "./Episode.js"

const isCount = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) >= 0

// The two tables below hold hundreds of thousands of numbers on a large corpus. They are checked
// in one loop each: decoded element by element they cost about 150 ms of every start-up.

/** Counts by paragraph id. */
const CountList = Schema.declare(
  (input: unknown): input is ReadonlyArray<number> => Array.isArray(input) && input.every(isCount),
  {
    identifier: "CountList",
    description: "an array of non-negative integers",
    jsonSchema: { type: "array", items: { type: "integer", minimum: 0 } }
  }
)

/** Counts by term. */
const CountTable = Schema.declare(
  (input: unknown): input is { readonly [term: string]: number } =>
    typeof input === "object" &&
    input !== null &&
    !Array.isArray(input) &&
    Object.values(input).every(isCount),
  {
    identifier: "CountTable",
    description: "an object whose values are non-negative integers",
    jsonSchema: { type: "object", additionalProperties: { type: "integer", minimum: 0 } }
  }
)

export class ParagraphStatistics extends Schema.Class<ParagraphStatistics>("ParagraphStatistics")({
  paragraphs: Schema.Int,
  averageTerms: Schema.Number,
  /** In how many paragraphs each search term occurs. */
  documentFrequency: CountTable,
  /** The number of search terms of each paragraph, by paragraph id (BM25's document length). */
  paragraphTerms: CountList
}) {}

export class SearchData extends Schema.Class<SearchData>("SearchData")({
  schemaVersion: SchemaVersion,
  /**
   * Transcripts in paragraph-id order with their paragraph counts: the paragraphs of the first
   * transcript have ids 0…n-1, those of the second follow, and so on.
   */
  transcripts: Schema.Array(Schema.Tuple(Slug, Schema.Int)),
  /** Episode slugs in episode-index id order. */
  episodes: Schema.Array(Slug),
  statistics: ParagraphStatistics
}) {}

/** Every episode, newest first. */
export class EpisodeCollection extends Schema.Class<EpisodeCollection>("EpisodeCollection")({
  data: Schema.Array(Episode),
  schemaVersion: SchemaVersion
}) {}
