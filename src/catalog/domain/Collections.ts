// Collection and search responses of the catalog (catalog-extensions §2, §4): pages of episodes,
// transcript search hits, and the health report.
import * as Schema from "effect/Schema"
import { documented } from "../../http/OpenApiDocument.js"
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

/**
 * `[start, end)` character offsets of one matched word in `snippet`. Its JSON Schema says "two
 * integers" with `items` and min/max counts instead of the derived `prefixItems` + `items: false`:
 * the same values, read alike by JSON Schema 2020-12 and by the draft-07 validators that OpenAPI tools
 * still use (Prism 5.14 validates referenced schemas as draft-07, where `items: false` refuses every
 * element).
 */
export const Highlight = Schema.Tuple(Schema.Int, Schema.Int).annotations({
  jsonSchema: {
    type: "array",
    title: "Highlight",
    description: "[start, end): character offsets of a matched word in the snippet.",
    items: { type: "integer" },
    minItems: 2,
    maxItems: 2
  }
})

export class TranscriptHit extends Schema.Class<TranscriptHit>("TranscriptHit")({
  slug: Slug,
  title: Schema.String,
  session: Schema.Int,
  episodeNumber: Schema.Int,
  paragraphIndex: Schema.Int.pipe(
    Schema.nonNegative(),
    documented("Paragraph index", "The paragraph's place in the transcript, from 0: non-negative.")
  ),
  speaker: Schema.NullOr(Schema.String),
  startSeconds: Schema.NullOr(Schema.Number),
  snippet: Schema.String,
  /** `[start, end)` character offsets of matched words in `snippet`. */
  highlights: Schema.Array(Highlight),
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
