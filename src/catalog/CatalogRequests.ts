// What the agent surfaces (MCP tools, RPC procedures) accept: the REST parameters as typed JSON
// values, with the REST bounds (from CatalogLimits.ts, as the REST parameters) and messages. The
// JSON Schema of each MCP tool and the RPC payloads derive from here; nothing here depends on the
// HTTP layer, so the RPC client can import it.
import * as Schema from "effect/Schema"
import { maxCursorLength, maxSearchTextLength, pageSizeBounds, sessionBounds } from "./CatalogLimits.js"
import { Cursor } from "./domain/Collections.js"
import { Slug, slugPattern } from "./domain/Episode.js"
import { requestOf } from "./RequestStruct.js"

/** An integer argument within bounds, with the message and JSON Schema every surface shows. */
export const boundedInteger = (
  title: string,
  description: string,
  bounds: { readonly minimum: number; readonly maximum: number; readonly default?: number }
) =>
  Schema.Int.pipe(
    Schema.between(bounds.minimum, bounds.maximum, {
      message: () => `must be an integer from ${bounds.minimum} to ${bounds.maximum}`
    }),
    Schema.annotations({
      jsonSchema: {
        type: "integer",
        title,
        description: `${description} From ${bounds.minimum} to ${bounds.maximum}.`,
        ...bounds
      }
    })
  )

/** The REST `limit`, as a number. */
export const PageSize = boundedInteger("Page size", "Results per page.", pageSizeBounds)
/** A session (season) number: the REST `session`, as a number. */
export const SessionNumber = boundedInteger(
  "Session",
  "Only episodes of this session (season).",
  sessionBounds
)

/** Words to search for, as long as REST takes them. */
export const SearchText = Schema.String.pipe(
  Schema.maxLength(maxSearchTextLength, {
    message: () => `must be at most ${maxSearchTextLength} characters`,
    title: "Search words"
  })
)

/** A cursor from the previous page, as long as REST takes it. */
export const PageCursor = Cursor.pipe(
  Schema.maxLength(maxCursorLength, {
    message: () => "is not a cursor this service issued",
    title: "Cursor",
    description: "The nextCursor of the previous page, sent with the same query and session."
  })
)

/** An episode's slug as an argument, with a message a caller can act on. */
export const SlugField = Slug.annotations({
  description: "The episode's slug: its number as text, negative for bonus episodes.",
  message: () => 'must be an episode number as text, such as "12" or "-1"'
})

/**
 * The slug as MCP tools take it: agents and tools often send the number itself (the MCP Inspector
 * turns `slug=7` into 7), so a number is taken as its text. Typed surfaces (RPC) keep `SlugField`.
 */
export const LenientSlugField = Schema.transform(
  Schema.Union(Schema.String, Schema.Number).annotations({
    jsonSchema: {
      anyOf: [{ type: "string", pattern: slugPattern.source }, { type: "integer" }],
      description: "The episode's slug: its number, as text or as a number; negative for bonus episodes.",
      examples: ["12", "-1"]
    }
  }),
  Slug.annotations({ message: () => 'must be an episode number, such as "12", 12 or "-1"' }),
  { strict: true, decode: (value) => String(value), encode: (slug) => slug }
)

/** What every search takes besides its words: the session filter and the page. */
const pageFields = {
  session: Schema.optional(SessionNumber),
  limit: Schema.optional(PageSize),
  cursor: Schema.optional(PageCursor)
}

export const EpisodeSearchRequest = requestOf(
  {
    query: Schema.optional(
      SearchText.annotations({
        description: "Words to search for; without it, episodes are listed newest first."
      })
    ),
    ...pageFields
  },
  "Search or page through episodes."
)
export type EpisodeSearchRequest = typeof EpisodeSearchRequest.Type

export const TranscriptSearchRequest = requestOf(
  {
    query: SearchText.annotations({
      description: "Words to search for: at least one of two or more letters or digits."
    }),
    ...pageFields
  },
  "Search the text of the transcripts."
)
export type TranscriptSearchRequest = typeof TranscriptSearchRequest.Type

export const EpisodeRequest = requestOf({ slug: SlugField }, "One episode by slug.")
export type EpisodeRequest = typeof EpisodeRequest.Type
