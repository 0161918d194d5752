// What the MCP tool `get_transcript` returns (catalog-service §4 rule 4, extensions §7): the
// transcript without its paragraph list, its text cut to `max_characters`, with `truncated` and
// the full length, so a long transcript cannot fill a model's context by accident. Characters are
// Unicode code points, as a client in any language counts them.
import * as Schema from "effect/Schema"
import * as Struct from "effect/Struct"
import { maxCharactersBounds } from "../CatalogLimits.js"
import { boundedInteger, LenientSlugField } from "../CatalogRequests.js"
import { Transcript } from "../domain/Transcript.js"
import { requestOf } from "../RequestStruct.js"

export const MaxCharacters = boundedInteger(
  "Characters",
  `How many characters of text to return (default ${maxCharactersBounds.default}).`,
  maxCharactersBounds
)

export const TranscriptExcerptRequest = requestOf(
  { slug: LenientSlugField, max_characters: Schema.optional(MaxCharacters) },
  "One transcript, cut to max_characters."
)
export type TranscriptExcerptRequest = typeof TranscriptExcerptRequest.Type

export class TranscriptExcerpt extends Schema.Class<TranscriptExcerpt>("TranscriptExcerpt")({
  ...Struct.omit(Transcript.fields, "paragraphs", "text"),
  /** The first `max_characters` characters of the transcript's text. */
  text: Schema.String,
  /** Whether `text` is shorter than the transcript. */
  truncated: Schema.Boolean,
  /** The length of the whole text, in characters. */
  totalCharacters: Schema.Int.pipe(Schema.nonNegative()),
  /** The number of paragraphs of the whole transcript (REST and RPC return them all). */
  paragraphCount: Schema.Int.pipe(Schema.nonNegative())
}) {}

/** The first `max` code points of `text`, and how many code points the whole text has. */
const cutCodePoints = (text: string, max: number): { readonly kept: string; readonly total: number } => {
  let total = 0
  let end = text.length
  for (let i = 0; i < text.length; i++) {
    if (total === max) end = Math.min(end, i)
    const code = text.charCodeAt(i)
    // A high surrogate and the low one after it are one character.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) i++
    total++
  }
  return { kept: total > max ? text.slice(0, end) : text, total }
}

export const excerptOf = (transcript: Transcript, maxCharacters: number): TranscriptExcerpt => {
  const { kept, total } = cutCodePoints(transcript.text, maxCharacters)
  return new TranscriptExcerpt(
    {
      slug: transcript.slug,
      title: transcript.title,
      language: transcript.language,
      format: transcript.format,
      source: transcript.source,
      context: transcript.context,
      text: kept,
      truncated: total > maxCharacters,
      totalCharacters: total,
      paragraphCount: transcript.paragraphs.length
    },
    true
  )
}
