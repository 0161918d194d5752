// What the server needs beside the exported FlexSearch indexes to answer searches: which paragraph
// ids belong to which transcript, and the term statistics that `relevance` is computed from.
import * as Schema from "effect/Schema"
import { Episode, SchemaVersion, Slug } from "./Episode.js"

export class ParagraphStatistics extends Schema.Class<ParagraphStatistics>("ParagraphStatistics")({
  paragraphs: Schema.Int,
  averageTerms: Schema.Number,
  /** In how many paragraphs each search term occurs. */
  documentFrequency: Schema.Record({ key: Schema.String, value: Schema.Int }),
  /** The number of search terms of each paragraph, by paragraph id (BM25's document length). */
  paragraphTerms: Schema.Array(Schema.Int)
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
