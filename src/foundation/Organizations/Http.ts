// Handlers of the `organizations` and `context` groups.
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Accounts } from "../Accounts/Accounts.js"
import { Success } from "../Domain/Common.js"
import {
  ApiKeyCredentialContext,
  type CredentialContext,
  OAuthCredentialContext,
  SessionCredentialContext
} from "../Domain/CredentialContext.js"
import { Unauthenticated } from "../Domain/Errors.js"
import type { OrganizationId } from "../Domain/Ids.js"
import { FoundationApi } from "../FoundationApi.js"
import { CurrentPrincipal, CurrentSession, type Principal } from "../Security/Principal.js"
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
    const repo = yield* OrganizationRepo

    /** The organization a token is bound to; it cannot be missing (tokens go with their organization). */
    const boundOrganization = (organizationId: OrganizationId) =>
      Effect.flatMap(repo.nameOf(organizationId), (name) =>
        Option.match(name, {
          onNone: () => Effect.fail(new Unauthenticated()),
          onSome: (name) => Effect.succeed({ id: organizationId, name })
        })
      )

    const credentialContext = (principal: Principal) => {
      switch (principal.kind) {
        case "session":
          return Effect.map(
            repo.summariesForUser(principal.userId),
            (organizations): CredentialContext =>
              new SessionCredentialContext({
                principalKind: "session",
                activeOrganizationId: principal.activeOrganizationId,
                organizations
              })
          )
        case "apiKey":
          return Effect.map(
            boundOrganization(principal.organizationId),
            (organization): CredentialContext =>
              new ApiKeyCredentialContext({
                principalKind: "apiKey",
                organization,
                grantedScopes: principal.scopes
              })
          )
        case "oauth":
          return Effect.map(
            boundOrganization(principal.organizationId),
            (organization): CredentialContext =>
              new OAuthCredentialContext({
                principalKind: "oauth",
                organization,
                grantedScopes: principal.scopes,
                clientId: principal.clientId
              })
          )
      }
    }

    return handlers
      .handle("credential", () => Effect.flatMap(CurrentPrincipal, credentialContext))
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
