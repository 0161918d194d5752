// The notebook's tools (catalog-extensions §12): save_note, list_notes, get_note and delete_note over
// the foundation's Notes service, which checks the grant's scope (again: the SDK refused a grant
// without it before the call, AgentResource.ts), the person it acts for and the bounds. The episode and paragraph a note is about are checked here against the catalog, so a
// slug or paragraph that does not exist is refused by name before anything is written.
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Runtime from "effect/Runtime"
import * as Schema from "effect/Schema"
import type { CatalogReadsService } from "../catalog/CatalogReads.js"
import { LenientSlugField } from "../catalog/CatalogRequests.js"
import { requestOf } from "../catalog/RequestStruct.js"
import { Page } from "../foundation/Domain/Common.js"
import { Id } from "../foundation/Domain/Ids.js"
import { Note, NoteId, NoteText, ParagraphIndex } from "../foundation/Notes/Note.js"
import type { Notes } from "../foundation/Notes/Notes.js"
import { agentNotebookScopes as scopes } from "./AgentResource.js"
import { makeAgentTool, readingAnnotations, ToolFailure } from "./AgentTool.js"

/** The bounds of `list_notes`' `limit` (content/docs/mcp.md states them; test/catalog/limits.test.ts checks). */
export const notesPageSize = { minimum: 1, maximum: 100, default: 50 } as const

const SaveNoteRequest = requestOf(
  {
    slug: LenientSlugField,
    paragraph_index: Schema.optional(ParagraphIndex),
    text: NoteText
  },
  "A note on an episode, or on one paragraph of its transcript."
)

const ListNotesRequest = requestOf(
  {
    cursor: Schema.optional(Id.annotations({ description: "The nextCursor of the previous page." })),
    limit: Schema.optional(
      Schema.Int.pipe(Schema.between(notesPageSize.minimum, notesPageSize.maximum)).annotations({
        description: `Notes per page (${notesPageSize.minimum}-${notesPageSize.maximum}, default ${notesPageSize.default}).`
      })
    )
  },
  "A page of the organization's notes."
)

const NoteRequest = requestOf({ id: NoteId }, "One note by id.")

const NotePage = Page(Note)

const DeletedNote = Schema.Struct({ id: NoteId, deleted: Schema.Literal(true) })

const noteText = (note: Note): string =>
  `Note ${note.id} on episode ${note.episodeSlug}` +
  (note.paragraphIndex === null ? "" : `, paragraph ${note.paragraphIndex}`) +
  `, saved by ${note.author.name} through ${note.clientId} at ${note.createdAt.toISOString()}:\n${note.text}`

const pageText = (page: typeof NotePage.Type): string =>
  page.items.length === 0
    ? "The notebook has no notes here."
    : page.items.map(noteText).join("\n\n") +
      (page.nextCursor === null ? "" : `\n\nMore notes: pass cursor "${page.nextCursor}".`)

/** The sentence an agent reads for a failure of the Notes service: its own message. */
const explain = (error: { readonly message: string }): ToolFailure =>
  new ToolFailure({ message: error.message })

/** The episode exists, and so does the paragraph when one is named. */
const checkTarget = (reads: CatalogReadsService, slug: string, paragraph: number | undefined) => {
  const episode = reads.episode(slug)
  if (Either.isLeft(episode)) return Effect.fail(new ToolFailure({ message: episode.left.message }))
  if (paragraph === undefined) return Effect.void
  const transcript = reads.transcript(slug)
  if (Either.isLeft(transcript)) {
    return Effect.fail(
      new ToolFailure({ message: `Episode ${slug} has no transcript, so it has no paragraph ${paragraph}.` })
    )
  }
  const count = transcript.right.data.paragraphs.length
  return paragraph < count
    ? Effect.void
    : Effect.fail(
        new ToolFailure({
          message: `Episode ${slug}'s transcript has no paragraph ${paragraph}: its paragraphs are 0 to ${count - 1}.`
        })
      )
}

export const notebookTools = (runtime: Runtime.Runtime<never>, notes: Notes, reads: CatalogReadsService) => {
  const { notesPerOrganization, noteWritesPerMinute } = notes.bounds
  const bounds = `The notebook holds at most ${notesPerOrganization} notes, and a connection may write ${noteWritesPerMinute} a minute.`
  return [
    makeAgentTool(runtime, {
      name: "save_note",
      title: "Save a note",
      description:
        "Save a note in the organization's notebook about an episode (by slug), or about one paragraph of its " +
        "transcript (paragraph_index, as search_transcripts reports it). Text: 1-2000 characters. Needs the " +
        `notes:write scope. ${bounds} Each call adds a new note.`,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false
      },
      input: SaveNoteRequest,
      output: Note,
      run: (input, call) =>
        Effect.zipRight(
          checkTarget(reads, input.slug, input.paragraph_index),
          notes
            .save(
              call.principal,
              { episodeSlug: input.slug, paragraphIndex: input.paragraph_index ?? null, text: input.text },
              scopes
            )
            .pipe(Effect.mapError(explain))
        ),
      render: noteText
    }),
    makeAgentTool(runtime, {
      name: "list_notes",
      title: "List notes",
      description:
        "The organization's notes, oldest first, each with its episode (and paragraph), author, client and time. " +
        `Pages of \`limit\` (${notesPageSize.minimum}-${notesPageSize.maximum}, default ${notesPageSize.default}); pass ` +
        "`nextCursor` back as `cursor` for the next page. Needs the notes:read scope.",
      annotations: readingAnnotations,
      input: ListNotesRequest,
      output: NotePage,
      run: (input, call) =>
        notes
          .list(
            call.principal,
            call.principal.organizationId,
            {
              cursor: input.cursor,
              limit: input.limit ?? notesPageSize.default
            },
            scopes
          )
          .pipe(Effect.mapError(explain)),
      render: pageText
    }),
    makeAgentTool(runtime, {
      name: "get_note",
      title: "Get a note",
      description: "One note of the organization's notebook by id. Needs the notes:read scope.",
      annotations: readingAnnotations,
      input: NoteRequest,
      output: Note,
      run: (input, call) =>
        notes
          .get(call.principal, call.principal.organizationId, input.id, scopes)
          .pipe(Effect.mapError(explain)),
      render: noteText
    }),
    makeAgentTool(runtime, {
      name: "delete_note",
      title: "Delete a note",
      description:
        "Delete a note of the organization's notebook by id, for good. Needs the notes:write scope; " +
        "owners and admins may delete any note, others only their own. Counts as a note write.",
      // Deleting again changes nothing more (the second call says the note is gone).
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      input: NoteRequest,
      output: DeletedNote,
      run: (input, call) =>
        notes
          .remove(call.principal, call.principal.organizationId, input.id, scopes)
          .pipe(Effect.as({ id: input.id, deleted: true as const }), Effect.mapError(explain)),
      render: (deleted) => `Note ${deleted.id} was deleted.`
    })
  ]
}
