// Handlers of the `notes` group.
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { pageRequest, Success } from "../Domain/Common.js"
import { FoundationApi } from "../FoundationApi.js"
import { CurrentPrincipal } from "../Security/Principal.js"
import { Notes } from "./Notes.js"

export const NotesHttp = HttpApiBuilder.group(FoundationApi, "notes", (handlers) =>
  Effect.gen(function* () {
    const notes = yield* Notes
    return handlers
      .handle("list", ({ path, urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          notes.list(principal, path.organizationId, pageRequest(urlParams))
        )
      )
      .handle("delete", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          notes.remove(principal, path.organizationId, path.noteId)
        ).pipe(Effect.as(Success.value))
      )
  })
)
