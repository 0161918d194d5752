// The rules of the notebook (catalog-extensions §12), used by the foundation API and by the agent
// session alike. Reading and saving are for every member; deleting is for owners and admins, or the
// note's author. A bearer credential also needs the read or write scope of the resource it was
// issued for (NotebookScopes: `organizations:*` through /api/v1, `notes:*` through /mcp/agent), and
// is checked as OrganizationAccess checks every credential (bound organization, scope, the person it
// acts for, who must still be a member). The bounds: notes per organization (counted atomically with the
// insert) and note writes a minute per connection; beyond either, nothing is written.
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Transactions } from "../Database/DatabaseEdge.js"
import { PageCursors } from "../Database/KeysetPage.js"
import type { GrantScope, PageRequest } from "../Domain/Common.js"
import { RoleNotPermitted } from "../Domain/Errors.js"
import type { OrganizationId } from "../Domain/Ids.js"
import { anyRole, managers, OrganizationAccess } from "../Organizations/OrganizationAccess.js"
import type { OAuthPrincipal, Principal } from "../Security/Principal.js"
import { RateLimiter } from "../Security/RateLimiter.js"
import { traced } from "../Traced.js"
import { type NoteDraft, type NoteId, NoteNotFound, NoteWritesExhausted } from "./Note.js"
import { NoteRepo, noteOf } from "./NoteRepo.js"
import { NotesConfig } from "./NotesConfig.js"

/** The scopes a bearer credential needs for the notebook, in the words of the resource it was issued for. */
export interface NotebookScopes {
  readonly read: GrantScope
  readonly write: GrantScope
}

/** Through the foundation API (`/api/v1`, foundation-extensions §8). */
export const apiNotebookScopes: NotebookScopes = { read: "organizations:read", write: "organizations:write" }

const noteNotFound = (noteId: NoteId) =>
  new NoteNotFound({ noteId, message: `No note has the id "${noteId}" in this organization's notebook.` })

export class Notes extends Effect.Service<Notes>()("Notes", {
  effect: Effect.gen(function* () {
    const repo = yield* NoteRepo
    const access = yield* OrganizationAccess
    const transactions = yield* Transactions
    const limiter = yield* RateLimiter
    const bounds = yield* NotesConfig
    const cursors = yield* PageCursors

    /** Counts one note write against the credential's budget a minute (sessions have none). */
    const countWrite = (principal: Principal) => {
      if (principal.kind === "session") return Effect.void
      const key = principal.kind === "oauth" ? principal.grantId : principal.tokenId
      return limiter.consume(`notes:write:${key}`, bounds.noteWritesPerMinute).pipe(
        Effect.catchTag("RateLimited", (limited) =>
          Effect.fail(
            new NoteWritesExhausted({
              limit: bounds.noteWritesPerMinute,
              retryAfterSeconds: limited.retryAfterSeconds
            })
          )
        )
      )
    }

    /** One page of the organization's notes, oldest first. */
    const list = traced(
      "Notes.list",
      (
        principal: Principal,
        organizationId: OrganizationId,
        page: PageRequest,
        scopes: NotebookScopes = apiNotebookScopes
      ) =>
        Effect.zipRight(
          access.authorize(principal, organizationId, scopes.read, anyRole),
          cursors.readPage(
            `notes:${organizationId}`,
            page,
            (after, limit) => repo.page(organizationId, after, limit),
            noteOf
          )
        )
    )

    const get = traced(
      "Notes.get",
      (
        principal: Principal,
        organizationId: OrganizationId,
        noteId: NoteId,
        scopes: NotebookScopes = apiNotebookScopes
      ) =>
        Effect.zipRight(
          access.authorize(principal, organizationId, scopes.read, anyRole),
          Effect.flatMap(repo.find(organizationId, noteId), (found) =>
            Option.match(found, {
              onNone: () => Effect.fail(noteNotFound(noteId)),
              onSome: (row) => Effect.succeed(noteOf(row))
            })
          )
        )
    )

    /**
     * Saves a note for the person an OAuth grant acts for, recording them and the client. The
     * episode and paragraph were checked by the caller (the catalog is not the foundation's).
     */
    const save = traced("Notes.save", (principal: OAuthPrincipal, draft: NoteDraft, scopes: NotebookScopes) =>
      Effect.gen(function* () {
        yield* access.authorize(principal, principal.organizationId, scopes.write, anyRole)
        yield* countWrite(principal)
        const row = yield* transactions.run(
          repo.insertBounded(
            {
              ...draft,
              organizationId: principal.organizationId,
              userId: principal.actsFor,
              clientId: principal.clientId
            },
            bounds.notesPerOrganization
          )
        )
        return noteOf(row)
      })
    )

    /** Owners and admins may delete any note; anyone else only the notes they wrote. */
    const remove = traced(
      "Notes.remove",
      (
        principal: Principal,
        organizationId: OrganizationId,
        noteId: NoteId,
        scopes: NotebookScopes = apiNotebookScopes
      ) =>
        Effect.gen(function* () {
          // A session has no scopes to hold (only its membership counts); a token needs the write scope.
          const scope = principal.kind === "session" ? scopes.read : scopes.write
          yield* access.authorize(principal, organizationId, scope, anyRole)
          const found = yield* repo.find(organizationId, noteId)
          if (Option.isNone(found)) return yield* noteNotFound(noteId)
          const person = principal.kind === "session" ? principal.userId : principal.actsFor
          if (found.value.userId !== person) {
            yield* access.authorize(principal, organizationId, scope, managers).pipe(
              Effect.catchTag("RoleNotPermitted", () =>
                Effect.fail(
                  new RoleNotPermitted({
                    message: "Only owners, admins and the note's author may delete a note."
                  })
                )
              )
            )
          }
          yield* countWrite(principal)
          if (!(yield* repo.remove(organizationId, noteId))) return yield* noteNotFound(noteId)
        })
    )

    return { list, get, save, remove, bounds }
  })
}) {}
