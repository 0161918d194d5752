// Handlers of the `organizations` and `context` groups.
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { Accounts } from "../Accounts/Accounts.js"
import { Success } from "../Domain/Common.js"
import { FoundationApi } from "../FoundationApi.js"
import { CurrentPrincipal, CurrentSession } from "../Security/Principal.js"
import { OrganizationRepo } from "./OrganizationRepo.js"
import { Organizations } from "./Organizations.js"

export const OrganizationsHttp = HttpApiBuilder.group(FoundationApi, "organizations", (handlers) =>
  Effect.gen(function* () {
    const organizations = yield* Organizations
    return handlers
      .handle("create", ({ payload }) =>
        Effect.flatMap(CurrentSession, (session) => organizations.create(session, payload))
      )
      .handle("list", () =>
        Effect.flatMap(CurrentSession, (session) => organizations.listForUser(session.userId))
      )
      .handle("get", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => organizations.get(principal, path.organizationId))
      )
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          organizations.update(principal, path.organizationId, payload)
        )
      )
      .handle("switch", ({ payload }) =>
        Effect.flatMap(CurrentSession, (session) =>
          organizations.switchTo(session, payload.organizationId)
        ).pipe(Effect.as(Success.value))
      )
  })
)

export const ContextHttp = HttpApiBuilder.group(FoundationApi, "context", (handlers) =>
  Effect.gen(function* () {
    const accounts = yield* Accounts
    const organizations = yield* Organizations
    const repo = yield* OrganizationRepo

    return handlers
      .handle("credential", () => Effect.flatMap(CurrentPrincipal, organizations.credentialContext))
      .handle("get", () =>
        Effect.gen(function* () {
          const session = yield* CurrentSession
          const [user, organizations] = yield* Effect.all([
            accounts.profile(session.userId),
            repo.listForUser(session.userId)
          ])
          return { user, activeOrganizationId: session.activeOrganizationId, organizations }
        })
      )
  })
)
