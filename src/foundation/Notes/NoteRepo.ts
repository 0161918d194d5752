// SQL for the notebook: the keyset-paged list of an organization's notes (oldest first), one note,
// saving under the organization's bound and deleting. Saving locks the organization's row first, so
// that the count and the insert are one step: two saves at the last free place leave one note more,
// never two.
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { repositoryCall } from "../Database/DatabaseEdge.js"
import { keysetCondition, type Position } from "../Database/KeysetPage.js"
import { OrganizationId, UserId } from "../Domain/Ids.js"
import { newId } from "../Security/Secrets.js"
import { Note, NotebookFull, type NoteDraft, NoteId } from "./Note.js"

/** A note as stored, with its author's name (validated on its way into `users`). */
const NoteRow = Schema.Struct({
  id: NoteId,
  organizationId: OrganizationId,
  episodeSlug: Schema.String,
  paragraphIndex: Schema.NullOr(Schema.Int),
  text: Schema.String,
  userId: UserId,
  userName: Schema.String,
  clientId: Schema.String,
  createdAt: Schema.DateFromSelf
})
export type NoteRow = typeof NoteRow.Type

const decodeRows = Schema.decodeUnknown(Schema.Array(NoteRow))

/** The note a row stands for (rows were decoded on their way out of the database). */
export const noteOf = (row: NoteRow): Note =>
  new Note(
    {
      id: row.id,
      organizationId: row.organizationId,
      episodeSlug: row.episodeSlug,
      paragraphIndex: row.paragraphIndex,
      text: row.text,
      author: { id: row.userId, name: row.userName },
      clientId: row.clientId,
      createdAt: row.createdAt
    },
    true
  )

export interface NewNote extends NoteDraft {
  readonly organizationId: OrganizationId
  readonly userId: UserId
  readonly clientId: string
}

export class NoteRepo extends Effect.Service<NoteRepo>()("NoteRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`
      n.id, n.organization_id, n.episode_slug, n.paragraph_index, n.text, n.user_id,
      u.name AS user_name, n.client_id, n.created_at`

    /** `limit` notes after `after`, oldest first (served by `notes_page_idx`). */
    const page = repositoryCall(
      "NoteRepo.page",
      (organizationId: OrganizationId, after: Option.Option<Position>, limit: number) =>
        Effect.flatMap(
          sql`
            SELECT ${columns}
            FROM notes n JOIN users u ON u.id = n.user_id
            WHERE n.organization_id = ${organizationId} AND ${keysetCondition(sql, after, "after", "n.")}
            ORDER BY n.created_at, n.id
            LIMIT ${limit}`,
          decodeRows
        )
    )

    const find = repositoryCall("NoteRepo.find", (organizationId: OrganizationId, noteId: NoteId) =>
      Effect.map(
        Effect.flatMap(
          sql`
            SELECT ${columns}
            FROM notes n JOIN users u ON u.id = n.user_id
            WHERE n.id = ${noteId} AND n.organization_id = ${organizationId}`,
          decodeRows
        ),
        (rows) => Option.fromNullable(rows[0])
      )
    )

    const count = SqlSchema.single({
      Request: OrganizationId,
      Result: Schema.Struct({ count: Schema.Int }),
      execute: (organizationId) =>
        sql`SELECT count(*)::int AS count FROM notes WHERE organization_id = ${organizationId}`
    })

    /**
     * Saves a note unless the organization already has `limit`. The organization's row is locked
     * (FOR NO KEY UPDATE: foreign-key checks elsewhere are not blocked) until the transaction ends,
     * so concurrent saves count one after another. Must run inside a transaction.
     */
    const insertBounded = repositoryCall("NoteRepo.insertBounded", (note: NewNote, limit: number) =>
      Effect.gen(function* () {
        yield* sql`SELECT 1 FROM organizations WHERE id = ${note.organizationId} FOR NO KEY UPDATE`
        const held = yield* count(note.organizationId).pipe(
          // An aggregate always returns its row.
          Effect.catchTag("NoSuchElementException", (error) => Effect.die(error))
        )
        if (held.count >= limit) return yield* new NotebookFull({ limit })
        const id = NoteId.make(newId("note"))
        yield* sql`
          INSERT INTO notes (id, organization_id, user_id, client_id, episode_slug, paragraph_index, text)
          VALUES (${id}, ${note.organizationId}, ${note.userId}, ${note.clientId}, ${note.episodeSlug},
            ${note.paragraphIndex}, ${note.text})`
        const rows = yield* Effect.flatMap(
          sql`
            SELECT ${columns}
            FROM notes n JOIN users u ON u.id = n.user_id
            WHERE n.id = ${id}`,
          decodeRows
        )
        const [row] = rows
        // The row was inserted by this transaction a statement ago.
        if (row === undefined) return yield* Effect.dieMessage("the note just inserted was not found")
        return row
      })
    )

    /** Deletes a note of the organization; false when there was none. */
    const remove = repositoryCall("NoteRepo.remove", (organizationId: OrganizationId, noteId: NoteId) =>
      Effect.map(
        sql`DELETE FROM notes WHERE id = ${noteId} AND organization_id = ${organizationId} RETURNING id`,
        (rows) => rows.length > 0
      )
    )

    return { page, find, insertBounded, remove }
  })
}) {}
