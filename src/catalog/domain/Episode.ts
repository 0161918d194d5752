// The Episode resource of the catalog contract (catalog-service §2), defined once for the build
// step, the REST API, OpenAPI, RPC and MCP.
import * as Schema from "effect/Schema"
import { documented } from "../../http/OpenApiDocument.js"

/** What a slug looks like: an episode number, negative for unnumbered episodes. */
export const slugPattern = /^-?[0-9]{1,9}$/

/** The stable identifier: the episode number as text, negative for unnumbered episodes. */
export const Slug = Schema.String.pipe(
  Schema.pattern(slugPattern),
  Schema.annotations({
    identifier: "Slug",
    description: "The episode number as text; unnumbered episodes (bonus, trailer) have negative slugs.",
    examples: ["12", "-1"]
  })
)

/** An absolute URL. */
export const Url = Schema.String.pipe(
  Schema.filter((value) => URL.canParse(value), { message: () => "must be an absolute URL" }),
  Schema.annotations({ format: "uri" })
)
/** A link to this API inside the snapshot's files: a path relative to the snapshot's root. */
export const apiPathPattern = /^v1\/[A-Za-z0-9._~%/-]+$/

/**
 * A link to this API: absolute in the service's answers (it starts with the origin the instance
 * serves, PUBLIC_ORIGIN), relative to the snapshot's root in the snapshot's files (`v1/episodes/12`),
 * so one snapshot folder serves any origin and a static consumer resolves it against its own.
 */
export const ApiLink = Schema.String.pipe(
  Schema.filter((value) => URL.canParse(value) || apiPathPattern.test(value), {
    message: () => "must be an absolute URL or a path relative to the snapshot root (v1/…)"
  }),
  Schema.annotations({
    format: "uri-reference",
    description:
      "A link to this API: absolute (the origin the service answers from) in answers; relative to the snapshot root (v1/…) in the snapshot's files."
  })
)
const DateTime = Schema.String.pipe(Schema.annotations({ format: "date-time" }))
const NonNegativeInt = Schema.Int.pipe(Schema.nonNegative())
/** A count or duration in whole units, as the documents name it. */
const counted = (title: string, description: string) =>
  NonNegativeInt.pipe(documented(title, `${description}: non-negative.`))

export class Chapter extends Schema.Class<Chapter>("Chapter")({
  startSeconds: Schema.Number.pipe(
    Schema.nonNegative(),
    documented("Start", "Seconds from the start of the audio: non-negative.")
  ),
  title: Schema.String,
  url: Schema.optional(Url),
  imageUrl: Schema.optional(Url)
}) {}

export class Person extends Schema.Class<Person>("Person")({
  name: Schema.String,
  /** `host`, `guest` or another Podcasting 2.0 role, lowercase. */
  role: Schema.String,
  url: Url
}) {}

export class EpisodeLinks extends Schema.Class<EpisodeLinks>("EpisodeLinks")({
  /** This episode in this API. */
  api: ApiLink,
  audio: Url,
  /** The publisher's page for the episode. */
  official: Url,
  /** The transcript in this API, when one is available. */
  transcript: Schema.optional(ApiLink),
  /** The show's website. */
  web: Url
}) {}

export class Audio extends Schema.Class<Audio>("Audio")({
  url: Url,
  mimeType: Schema.String,
  sizeBytes: counted("Size", "The audio file's size in bytes"),
  durationSeconds: counted("Duration", "The audio's length in whole seconds")
}) {}

export class PlatformLinks extends Schema.Class<PlatformLinks>("PlatformLinks")({
  /** The show's official site. */
  official: Url,
  /** The episode in a podcast directory app. */
  applePodcasts: Schema.optional(Url),
  /** The episode in a streaming app. */
  spotify: Schema.optional(Url)
}) {}

export class TranscriptRef extends Schema.Class<TranscriptRef>("TranscriptRef")({
  /** Where the publisher's transcript lives. */
  sourceUrl: Url,
  /** The transcript's file in the static snapshot, relative to the snapshot root. */
  path: Schema.String,
  /** SHA-256 of the transcript's `text`. */
  contentSha256: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)),
  wordCount: counted("Word count", "Words in the transcript's text")
}) {}

export class Episode extends Schema.Class<Episode>("Episode")({
  slug: Slug,
  kind: Schema.Literal("episode"),
  episodeNumber: Schema.Int,
  session: Schema.Int,
  title: Schema.String,
  subtitle: Schema.String,
  description: Schema.String,
  showNotes: Schema.String,
  publishedAt: DateTime,
  durationSeconds: counted("Duration", "The episode's length in whole seconds"),
  transcriptAvailable: Schema.Boolean,
  /** The search score; null outside a search. */
  relevance: Schema.NullOr(Schema.Number),
  /** Names of the fields a search matched; empty outside a search. */
  matchedFields: Schema.Array(Schema.String),
  chapters: Schema.Array(Chapter),
  /** The episode's artwork, else the show's; absent when the feed has neither. */
  imageUrl: Schema.optional(Url),
  people: Schema.Array(Person),
  links: EpisodeLinks,
  audio: Audio,
  platformLinks: PlatformLinks,
  transcript: Schema.optional(TranscriptRef)
}) {}

/** Every detail response: `{ data, schemaVersion: "1" }`. */
export const SchemaVersion = Schema.Literal("1")

export class EpisodeDetail extends Schema.Class<EpisodeDetail>("EpisodeDetail")({
  data: Episode,
  schemaVersion: SchemaVersion
}) {}
