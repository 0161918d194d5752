// An organization's notebook (catalog-extensions §12): notes on an episode, or on one paragraph of
// its transcript, saved by agents acting for a person and read by people in the foundation API. The
// foundation owns them because they belong to the organization and go with it; the episode is named
// by its slug only (the agent feature checks it against the catalog before saving).
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as Schema from "effect/Schema"
import { characters, documented } from "../../http/OpenApiDocument.js"
import { Timestamp } from "../Domain/Common.js"
import { Id, OrganizationId, UserId } from "../Domain/Ids.js"
import { Text } from "../Domain/Text.js"

export const NoteId = Id.pipe(Schema.brand("NoteId"))
export type NoteId = typeof NoteId.Type

/** The bounds of a note's text (§12). */
export const noteTextBounds = { minimum: 1, maximum: 2000 } as const

export const NoteText = Text.pipe(
  Schema.minLength(noteTextBounds.minimum),
  Schema.maxLength(noteTextBounds.maximum)
).pipe(documented("Note text", `The note: ${characters(noteTextBounds.minimum, noteTextBounds.maximum)}.`))

/** An episode's slug as the catalog writes it: its number as text, negative for bonus episodes. */
export const EpisodeSlug = Schema.String.pipe(Schema.pattern(/^-?[0-9]{1,9}$/)).annotations({
  description: "The episode's slug: its number as text, negative for bonus episodes."
})

export const ParagraphIndex = Schema.Int.pipe(Schema.between(0, 1_000_000)).pipe(
  documented(
    "Paragraph index",
    "The index of a paragraph of the episode's transcript: an integer from 0 to 1000000."
  )
)

export class Note extends Schema.Class<Note>("Note")({
  id: NoteId,
  organizationId: OrganizationId,
  episodeSlug: EpisodeSlug,
  /** The transcript paragraph the note is about; null for a note on the whole episode. */
  paragraphIndex: Schema.NullOr(ParagraphIndex),
  text: NoteText,
  /** The person the agent acted for. */
  author: Schema.Struct({ id: UserId, name: Schema.String }),
  /** The OAuth client (the agent) that saved it. */
  clientId: Schema.String,
  createdAt: Timestamp
}) {}

/** What a note is saved from: the episode, perhaps a paragraph, and the text. */
export interface NoteDraft {
  readonly episodeSlug: string
  readonly paragraphIndex: number | null
  readonly text: string
}

const message = (text: string) => Schema.optionalWith(Schema.String, { default: () => text })

export class NoteNotFound extends Schema.TaggedError<NoteNotFound>()(
  "NoteNotFound",
  { message: message("The note was not found."), noteId: Schema.optional(Schema.String) },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** The organization's notebook holds as many notes as it may: nothing was saved. */
export class NotebookFull extends Schema.TaggedError<NotebookFull>()(
  "NotebookFull",
  { limit: Schema.Int },
  HttpApiSchema.annotations({ status: 409 })
) {
  override get message() {
    return `The organization's notebook is full: it holds at most ${this.limit} notes. Nothing was saved; delete notes to make room.`
  }
}

/** A connection wrote notes as often as a minute allows: nothing was written. */
export class NoteWritesExhausted extends Schema.TaggedError<NoteWritesExhausted>()(
  "NoteWritesExhausted",
  { limit: Schema.Int, retryAfterSeconds: Schema.Int },
  HttpApiSchema.annotations({ status: 429 })
) {
  override get message() {
    return `This connection may write at most ${this.limit} notes a minute. Nothing was written; try again in ${this.retryAfterSeconds} s.`
  }
}
