// Handlers of the `tokens` group: owners and admins of the organization manage its tokens.
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { pageRequest, Success } from "../Domain/Common.js"
import { FoundationApi } from "../FoundationApi.js"
import { managers, OrganizationAccess } from "../Organizations/OrganizationAccess.js"
import { CurrentSession } from "../Security/Principal.js"
import { ApiTokens } from "./ApiTokens.js"

export const TokensHttp = HttpApiBuilder.group(FoundationApi, "tokens", (handlers) =>
  Effect.gen(function* () {
    const tokens = yield* ApiTokens
    const access = yield* OrganizationAccess
    return handlers
      .handle("create", ({ path, payload }) =>
        Effect.gen(function* () {
          const session = yield* CurrentSession
          yield* access.requireRole(session, path.organizationId, managers)
          return yield* tokens.create({
            ...payload,
            organizationId: path.organizationId,
            createdBy: session.userId
          })
        })
      )
      .handle("list", ({ path, urlParams }) =>
        Effect.gen(function* () {
          yield* access.requireRole(yield* CurrentSession, path.organizationId, managers)
          return yield* tokens.list(path.organizationId, pageRequest(urlParams))
        })
      )
      .handle("revoke", ({ path }) =>
        Effect.gen(function* () {
          yield* access.requireRole(yield* CurrentSession, path.organizationId, managers)
          yield* tokens.revoke(path.organizationId, path.tokenId)
          return Success.value
        })
      )
  })
)
