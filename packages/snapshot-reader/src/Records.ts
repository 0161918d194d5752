// The answers a reader gives, as the service's JSON: the encoded sides of its Schema classes, so
// they are the service's types. The package's declarations write them out in full
// (packages/Declarations.ts), since a consumer has no effect to read Schema classes with.
import type { TranscriptHit as TranscriptHitSchema } from "../../../src/catalog/domain/Collections.js"
import type { Episode as EpisodeSchema } from "../../../src/catalog/domain/Episode.js"

/** An episode as the service's JSON gives it: a search result, or `GET /v1/episodes/{slug}`'s `data`. */
export type Episode = typeof EpisodeSchema.Encoded

/** A transcript paragraph holding every word of a query, as `GET /v1/transcripts/search` gives it. */
export type TranscriptHit = typeof TranscriptHitSchema.Encoded

/**
 * What a list of episode results shows: these fields of the episode as the service answers the same
 * search (`relevance` and `matchedFields` included), read from the search's description instead of
 * each episode's file.
 */
export type EpisodeSummary = Pick<
  Episode,
  | "slug"
  | "title"
  | "session"
  | "episodeNumber"
  | "publishedAt"
  | "durationSeconds"
  | "subtitle"
  | "description"
  | "relevance"
  | "matchedFields"
>
