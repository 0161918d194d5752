// Collection and search responses of the catalog (catalog-extensions §2, §4): pages of episodes,
// transcript search hits, and the health report.
import * as Schema from "effect/Schema"
import { Episode, SchemaVersion, Slug, Url } from "./Episode.js"

/** Opaque; bound to the query and snapshot it was made for. */
export const Cursor = Schema.String.pipe(
  Schema.annotations({
    identifier: "Cursor",
    description: "Opaque cursor from the previous page's nextCursor."
  })
)

export class EpisodePage extends Schema.Class<EpisodePage>("EpisodePage")({
  data: Schema.Array(Episode),
  nextCursor: Schema.NullOr(Cursor),
  schemaVersion: SchemaVersion
}) {}

export class TranscriptHitLinks extends Schema.Class<TranscriptHitLinks>("TranscriptHitLinks")({
  episode: Url,
  transcript: Url,
  /** The audio at the paragraph: `<audio url>#t=<startSeconds>`, the bare audio URL when `startSeconds` is null. */
  audioAt: Url
}) {}

export class TranscriptHit extends Schema.Class<TranscriptHit>("TranscriptHit")({
  slug: Slug,
  title: Schema.String,
  session: Schema.Int,
  episodeNumber: Schema.Int,
  paragraphIndex: Schema.Int.pipe(Schema.nonNegative()),
  speaker: Schema.NullOr(Schema.String),
  startSeconds: Schema.NullOr(Schema.Number),
  snippet: Schema.String,
  /** `[start, end)` character offsets of matched words in `snippet`. */
  highlights: Schema.Array(Schema.Tuple(Schema.Int, Schema.Int)),
  relevance: Schema.Number,
  links: TranscriptHitLinks
}) {}

export class TranscriptHitPage extends Schema.Class<TranscriptHitPage>("TranscriptHitPage")({
  data: Schema.Array(TranscriptHit),
  nextCursor: Schema.NullOr(Cursor),
  schemaVersion: SchemaVersion
}) {}

export class HealthSnapshot extends Schema.Class<HealthSnapshot>("HealthSnapshot")({
  id: Schema.String,
  builtAt: Schema.String,
  episodes: Schema.Int,
  transcripts: Schema.Int
}) {}

export class Health extends Schema.Class<Health>("Health")({
  status: Schema.Literal("ok"),
  snapshot: HealthSnapshot
}) {}
