// Handlers of the `tokens` group: owners and admins of the organization manage its tokens
// (OrganizationTokens holds the rule).
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { pageRequest, Success } from "../Domain/Common.js"
import { FoundationApi } from "../FoundationApi.js"
import { CurrentSession } from "../Security/Principal.js"
import { OrganizationTokens } from "./OrganizationTokens.js"

export const TokensHttp = HttpApiBuilder.group(FoundationApi, "tokens", (handlers) =>
  Effect.gen(function* () {
    const tokens = yield* OrganizationTokens
    return handlers
      .handle("create", ({ path, payload }) =>
        Effect.flatMap(CurrentSession, (session) => tokens.create(session, path.organizationId, payload))
      )
      .handle("list", ({ path, urlParams }) =>
        Effect.flatMap(CurrentSession, (session) =>
          tokens.list(session, path.organizationId, pageRequest(urlParams))
        )
      )
      .handle("revoke", ({ path }) =>
        Effect.flatMap(CurrentSession, (session) =>
          tokens.revoke(session, path.organizationId, path.tokenId)
        ).pipe(Effect.as(Success.value))
      )
  })
)
