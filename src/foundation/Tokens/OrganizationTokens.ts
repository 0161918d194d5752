// The rules of an organization's API tokens (extensions §3, §5): its owners and admins create, list
// and revoke them (a member 403, anyone else 404), and a token acts for the person who created it.
// The JSON API and the organization's console page both go through here.
import * as Effect from "effect/Effect"
import type { PageRequest, Scope } from "../Domain/Common.js"
import type { OrganizationId, TokenId } from "../Domain/Ids.js"
import { managers, OrganizationAccess } from "../Organizations/OrganizationAccess.js"
import type { SessionPrincipal } from "../Security/Principal.js"
import { traced } from "../Traced.js"
import { ApiTokens } from "./ApiTokens.js"

export class OrganizationTokens extends Effect.Service<OrganizationTokens>()("OrganizationTokens", {
  effect: Effect.gen(function* () {
    const tokens = yield* ApiTokens
    const access = yield* OrganizationAccess

    const create = traced(
      "OrganizationTokens.create",
      (
        session: SessionPrincipal,
        organizationId: OrganizationId,
        input: {
          readonly name: string
          readonly scopes: ReadonlyArray<Scope>
          readonly expiresInDays: number
        }
      ) =>
        Effect.zipRight(
          access.requireRole(session, organizationId, managers),
          tokens.create({ ...input, organizationId, createdBy: session.userId })
        )
    )

    const list = traced(
      "OrganizationTokens.list",
      (session: SessionPrincipal, organizationId: OrganizationId, page: PageRequest) =>
        Effect.zipRight(
          access.requireRole(session, organizationId, managers),
          tokens.list(organizationId, page)
        )
    )

    const revoke = traced(
      "OrganizationTokens.revoke",
      (session: SessionPrincipal, organizationId: OrganizationId, tokenId: TokenId) =>
        Effect.zipRight(
          access.requireRole(session, organizationId, managers),
          tokens.revoke(organizationId, tokenId)
        )
    )

    return { create, list, revoke }
  })
}) {}
