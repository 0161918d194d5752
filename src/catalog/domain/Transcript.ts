// The Transcript resource (catalog-extensions §3): the full text of an episode, split into
// paragraphs with speaker and timing where the source has them.
import * as Schema from "effect/Schema"
import { documented } from "../../http/OpenApiDocument.js"
import { EpisodeLinks, SchemaVersion, Slug, Url } from "./Episode.js"

/** The source formats the build step reads. */
export const TranscriptFormat = Schema.Literal("vtt", "srt", "json", "markdown", "text").annotations({
  identifier: "TranscriptFormat"
})
export type TranscriptFormat = typeof TranscriptFormat.Type

const Seconds = Schema.NullOr(
  Schema.Number.pipe(
    Schema.nonNegative(),
    documented("Seconds", "Seconds from the start of the audio: non-negative.")
  )
)

export class Paragraph extends Schema.Class<Paragraph>("Paragraph")({
  index: Schema.Int.pipe(
    Schema.nonNegative(),
    documented("Index", "The paragraph's place in the transcript, from 0: non-negative.")
  ),
  speaker: Schema.NullOr(Schema.String),
  startSeconds: Seconds,
  endSeconds: Seconds,
  text: Schema.String
}) {}

export class TranscriptSource extends Schema.Class<TranscriptSource>("TranscriptSource")({
  sourceUrl: Url,
  /** SHA-256 of the transcript's `text`, hex. */
  contentSha256: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)),
  wordCount: Schema.Int.pipe(
    Schema.nonNegative(),
    documented("Word count", "Words in the transcript's text: non-negative.")
  ),
  format: TranscriptFormat
}) {}

export class TranscriptEpisodeContext extends Schema.Class<TranscriptEpisodeContext>(
  "TranscriptEpisodeContext"
)({
  slug: Slug,
  title: Schema.String,
  session: Schema.Int,
  episodeNumber: Schema.Int,
  publishedAt: Schema.String.pipe(Schema.annotations({ format: "date-time" })),
  links: EpisodeLinks
}) {}

export class Transcript extends Schema.Class<Transcript>("Transcript")({
  slug: Slug,
  title: Schema.String,
  language: Schema.String,
  format: TranscriptFormat,
  /** The whole transcript: paragraphs separated by blank lines, each led by its speaker if known. */
  text: Schema.String,
  paragraphs: Schema.Array(Paragraph),
  source: TranscriptSource,
  context: Schema.Struct({ episode: TranscriptEpisodeContext })
}) {}

export class TranscriptDetail extends Schema.Class<TranscriptDetail>("TranscriptDetail")({
  data: Transcript,
  schemaVersion: SchemaVersion
}) {}
