// What the ask endpoint answers (catalog-extensions §8): what it recognised in the question, an
// extractive answer in which every sentence ends with a citation marker `[n]` pointing into
// `citations`, and the episodes and transcript hits it was composed from, in their REST shapes.
// The server-sent events carry the same parts, one event each.
import * as Schema from "effect/Schema"
import { TranscriptHit } from "../domain/Collections.js"
import { Episode, Person, Slug, Url } from "../domain/Episode.js"

export class AskIntent extends Schema.Class<AskIntent>("AskIntent")({
  /** Episode numbers named in the question ("episode 12", "#12", "episode twelve"). */
  episodeNumbers: Schema.Array(Schema.Int),
  /** Sessions (seasons) named in the question ("season 2", "the second season"). */
  sessions: Schema.Array(Schema.Int),
  /** Hosts and guests of the feed named in the question. */
  people: Schema.Array(Person),
  /** The remaining words worth searching for. */
  topics: Schema.Array(Schema.String)
}) {}

export class Citation extends Schema.Class<Citation>("Citation")({
  slug: Slug,
  title: Schema.String,
  /** Present when the sentence comes from a transcript paragraph. */
  paragraphIndex: Schema.optional(Schema.Int.pipe(Schema.nonNegative())),
  /** Where that paragraph starts in the audio, when the transcript has timings. */
  startSeconds: Schema.optional(Schema.Number.pipe(Schema.nonNegative())),
  /** The cited episode or transcript in this API. */
  url: Url
}) {}

/** The answer and its citations: the `answer` event. */
export class AskComposition extends Schema.Class<AskComposition>("AskComposition")({
  /** Sentences from the catalog, each followed by `[n]`, the 1-based index of its citation. */
  answer: Schema.String,
  citations: Schema.Array(Citation)
}) {}

export class AskAnswer extends Schema.Class<AskAnswer>("AskAnswer")({
  question: Schema.String,
  intent: AskIntent,
  answer: Schema.String,
  citations: Schema.Array(Citation),
  episodes: Schema.Array(Episode),
  transcriptHits: Schema.Array(TranscriptHit)
}) {}

/** The `done` event: how many of each part were sent. */
export class AskDone extends Schema.Class<AskDone>("AskDone")({
  episodes: Schema.Int,
  transcriptHits: Schema.Int,
  citations: Schema.Int
}) {}
