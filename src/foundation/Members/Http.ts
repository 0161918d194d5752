// Handlers of the `members` group.
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { pageRequest, Success } from "../Domain/Common.js"
import { FoundationApi } from "../FoundationApi.js"
import { CurrentSession } from "../Security/Principal.js"
import { Members } from "./Members.js"

export const MembersHttp = HttpApiBuilder.group(FoundationApi, "members", (handlers) =>
  Effect.gen(function* () {
    const members = yield* Members
    return handlers
      .handle("list", ({ path, urlParams }) =>
        Effect.flatMap(CurrentSession, (session) =>
          members.list(session, path.organizationId, pageRequest(urlParams))
        )
      )
      .handle("updateRole", ({ path, payload }) =>
        Effect.flatMap(CurrentSession, (session) =>
          members.updateRole(session, path.organizationId, path.memberId, payload.role)
        ).pipe(Effect.as(Success.value))
      )
      .handle("remove", ({ path }) =>
        Effect.flatMap(CurrentSession, (session) =>
          members.remove(session, path.organizationId, path.memberId)
        ).pipe(Effect.as(Success.value))
      )
  })
)
