// The rules of organizations: creation (extensions §2), reading, the optimistic-concurrency update
// (base contract §4), switching the session's active organization, and who a credential is.
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Sessions } from "../Accounts/Sessions.js"
import { Transactions } from "../Database/DatabaseEdge.js"
import { builtOnce } from "../Database/RememberedRows.js"
import {
  ApiKeyCredentialContext,
  type CredentialContext,
  OAuthCredentialContext,
  SessionCredentialContext
} from "../Domain/CredentialContext.js"
import { OrganizationNotFound, StaleVersion } from "../Domain/Errors.js"
import { MemberId, OrganizationId } from "../Domain/Ids.js"
import { Slug } from "../Domain/Organization.js"
import type { Principal, SessionPrincipal } from "../Security/Principal.js"
import { newId, randomSecret } from "../Security/Secrets.js"
import { traced } from "../Traced.js"
import type { UpdateOrganizationRequest } from "./Api.js"
import { anyRole, managers, OrganizationAccess } from "./OrganizationAccess.js"
import { OrganizationRepo } from "./OrganizationRepo.js"

/** Lowercase letters, digits and single dashes, at most 60 characters; "organization" when nothing is left. */
export const slugFromName = (name: string): Slug => {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50)
    .replace(/-+$/, "")
  return Slug.make(slug === "" ? "organization" : slug)
}

/** `base` with a random suffix of six lowercase letters and digits (at most 57 characters). */
const suffixed = (base: Slug): Slug =>
  Slug.make(
    `${base}-${randomSecret(4)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "0")}`
  )

/** An omitted detail is kept (undefined), an empty string clears it (null). */
const detail = (value: string | undefined): string | null | undefined => (value === "" ? null : value)

export class Organizations extends Effect.Service<Organizations>()("Organizations", {
  effect: Effect.gen(function* () {
    const transactions = yield* Transactions
    const repo = yield* OrganizationRepo
    const sessions = yield* Sessions
    const access = yield* OrganizationAccess

    const insertWithOwner = (session: SessionPrincipal, name: string, slug: Slug) =>
      transactions.run(
        Effect.gen(function* () {
          const organization = yield* repo.insert({ id: OrganizationId.make(newId("org")), name, slug })
          yield* repo
            .insertMember({
              id: MemberId.make(newId("mem")),
              organizationId: organization.id,
              userId: session.userId,
              role: "owner"
            })
            // The organization was created by this transaction: a member already there is a bug.
            .pipe(Effect.catchTag("AlreadyMember", Effect.die))
          yield* sessions.setActiveOrganization(session.sessionId, organization.id)
          return organization
        })
      )

    /**
     * The creator becomes its owner and the organization becomes the session's active one. A slug
     * given by the caller must be free (409); a derived one gets a random suffix when taken.
     */
    const create = traced(
      "Organizations.create",
      (session: SessionPrincipal, input: { readonly name: string; readonly slug?: Slug | undefined }) => {
        if (input.slug !== undefined) return insertWithOwner(session, input.name, input.slug)
        const base = slugFromName(input.name)
        const attempt = (n: number): ReturnType<typeof insertWithOwner> =>
          insertWithOwner(session, input.name, n === 0 ? base : suffixed(base)).pipe(
            Effect.catchTag("SlugTaken", (taken) => (n < 3 ? attempt(n + 1) : Effect.fail(taken)))
          )
        return attempt(0)
      }
    )

    /** Any member's session, or a token of this organization with `organizations:read`. */
    const get = traced("Organizations.get", (principal: Principal, organizationId: OrganizationId) =>
      Effect.gen(function* () {
        yield* access.authorizeRead(principal, organizationId, "organizations:read", anyRole)
        // A bearer credential may read only its own organization, which came with it.
        if (principal.kind !== "session") return principal.organization
        const organization = yield* repo.findById(organizationId)
        if (Option.isNone(organization)) return yield* new OrganizationNotFound()
        return organization.value
      })
    )

    /**
     * An owner's or admin's session, or a token with `organizations:write`. The version must be the
     * current one (409 otherwise, which also makes replaying a completed write safe). The row is
     * locked before the role is checked, so a concurrent demotion cannot slip in between, and
     * concurrent writers with one version queue on the lock: the first wins, the rest see 409.
     */
    const update = traced(
      "Organizations.update",
      (principal: Principal, organizationId: OrganizationId, input: UpdateOrganizationRequest) =>
        transactions.run(
          Effect.gen(function* () {
            const current = yield* repo.lockForChange(organizationId)
            yield* access.authorize(principal, organizationId, "organizations:write", managers)
            if (Option.isNone(current)) return yield* new OrganizationNotFound()
            if (current.value !== input.version) return yield* new StaleVersion()
            const updated = yield* repo.update(organizationId, input.version, {
              name: input.name,
              companyName: detail(input.companyName),
              website: detail(input.website),
              phone: detail(input.phone),
              address: detail(input.address)
            })
            if (Option.isNone(updated)) return yield* new StaleVersion()
            return updated.value
          })
        )
    )

    /** Makes one of the caller's organizations the session's active one (404 for any other). */
    const switchTo = traced(
      "Organizations.switchTo",
      (session: SessionPrincipal, organizationId: OrganizationId) =>
        Effect.gen(function* () {
          yield* access.memberRole(session, organizationId)
          yield* sessions.setActiveOrganization(session.sessionId, organizationId)
        })
    )

    /**
     * Who the calling credential is (`context.credential`). A credential read again is the same
     * principal (built once from its remembered row), so its answer is built, and checked, once.
     */
    const contextOf = builtOnce((principal: Principal): CredentialContext => {
      switch (principal.kind) {
        case "session":
          return new SessionCredentialContext({
            principalKind: "session",
            activeOrganizationId: principal.activeOrganizationId,
            organizations: principal.memberships.map(({ organizationId, name, role }) => ({
              id: organizationId,
              name,
              role
            }))
          })
        case "apiKey":
          return new ApiKeyCredentialContext({
            principalKind: "apiKey",
            organization: { id: principal.organizationId, name: principal.organization.name },
            grantedScopes: principal.scopes
          })
        case "oauth":
          return new OAuthCredentialContext({
            principalKind: "oauth",
            organization: { id: principal.organizationId, name: principal.organization.name },
            grantedScopes: principal.scopes,
            clientId: principal.clientId
          })
      }
    })
    const credentialContext = (principal: Principal) => Effect.succeed(contextOf(principal))

    return { create, get, update, switchTo, credentialContext, listForUser: repo.listForUser }
  })
}) {}
