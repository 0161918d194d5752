// Handlers of the `invitations` group.
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { pageRequest, Success } from "../Domain/Common.js"
import { FoundationApi } from "../FoundationApi.js"
import { CurrentSession } from "../Security/Principal.js"
import { AcceptedInvitation } from "./Api.js"
import { Invitations } from "./Invitations.js"

export const InvitationsHttp = HttpApiBuilder.group(FoundationApi, "invitations", (handlers) =>
  Effect.gen(function* () {
    const invitations = yield* Invitations
    return handlers
      .handle("list", ({ path, urlParams }) =>
        Effect.flatMap(CurrentSession, (session) =>
          invitations.list(session, path.organizationId, pageRequest(urlParams))
        )
      )
      .handle("create", ({ path, payload }) =>
        Effect.flatMap(CurrentSession, (session) => invitations.create(session, path.organizationId, payload))
      )
      .handle("revoke", ({ path }) =>
        Effect.flatMap(CurrentSession, (session) =>
          invitations.revoke(session, path.organizationId, path.invitationId)
        ).pipe(Effect.as(Success.value))
      )
      .handle("accept", ({ path }) =>
        Effect.flatMap(CurrentSession, (session) => invitations.accept(session, path.invitationId)).pipe(
          Effect.map((organizationId) => new AcceptedInvitation({ success: true, organizationId }))
        )
      )
      .handle("reject", ({ path }) =>
        Effect.flatMap(CurrentSession, (session) => invitations.reject(session, path.invitationId)).pipe(
          Effect.as(Success.value)
        )
      )
  })
)
