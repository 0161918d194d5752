// Who may act on an organization (extensions §3), in one place. A session whose user is not a
// member gets 404, as for an organization that does not exist; a bearer token used on another
// organization gets 403, and so does one lacking the scope an operation needs. A bearer token (API
// token or OAuth access token) acts for its person (extensions §5, §8): their role is read here, at
// each request, so a person who left can do nothing through it and one demoted to member can only read.
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { GrantScope, Role } from "../Domain/Common.js"
import {
  type DatabaseUnavailable,
  DelegatorNotMember,
  OrganizationNotFound,
  RoleNotPermitted,
  TokenForAnotherOrganization,
  TokenScopeMissing
} from "../Domain/Errors.js"
import type { OrganizationId } from "../Domain/Ids.js"
import { FoundationResource } from "../OAuth/FoundationResource.js"
import type { BearerPrincipal, Principal, SessionPrincipal } from "../Security/Principal.js"
import { traced } from "../Traced.js"
import { type Membership, OrganizationRepo } from "./OrganizationRepo.js"

/** The roles that manage an organization: its details, tokens and invitations. */
export const managers: ReadonlyArray<Role> = ["owner", "admin"]
export const anyRole: ReadonlyArray<Role> = ["owner", "admin", "member"]

/** Why `authorize` or `authorizeRead` refuses a caller (or could not decide). */
type AuthorizationFailure =
  | OrganizationNotFound
  | RoleNotPermitted
  | TokenForAnotherOrganization
  | TokenScopeMissing
  | DelegatorNotMember
  | DatabaseUnavailable

export class OrganizationAccess extends Effect.Service<OrganizationAccess>()("OrganizationAccess", {
  effect: Effect.gen(function* () {
    const organizations = yield* OrganizationRepo
    const apiResource = yield* FoundationResource

    /** The session user's membership (id and role); 404 when not a member. */
    const membership = (
      session: SessionPrincipal,
      organizationId: OrganizationId
    ): Effect.Effect<Membership, OrganizationNotFound | DatabaseUnavailable> =>
      Effect.flatMap(organizations.membershipOf(session.userId, organizationId), (found) =>
        Option.match(found, {
          onNone: () => Effect.fail(new OrganizationNotFound()),
          onSome: Effect.succeed
        })
      )

    /**
     * For reads: the session user's role as read with the session, in this request's first
     * statement (a read has nothing to lock); 404 when not a member.
     */
    const readRole = (
      session: SessionPrincipal,
      organizationId: OrganizationId
    ): Effect.Effect<Role, OrganizationNotFound> => {
      const found = session.memberships.find((membership) => membership.organizationId === organizationId)
      return found === undefined ? Effect.fail(new OrganizationNotFound()) : Effect.succeed(found.role)
    }

    /** The session user's role in the organization; 404 when not a member. */
    const memberRole = (
      session: SessionPrincipal,
      organizationId: OrganizationId
    ): Effect.Effect<Role, OrganizationNotFound | DatabaseUnavailable> =>
      Effect.map(membership(session, organizationId), (found) => found.role)

    /** The session user's role, which must be one of `allowed` (403 otherwise; 404 when not a member). */
    const requireRole = traced(
      "OrganizationAccess.requireRole",
      (
        session: SessionPrincipal,
        organizationId: OrganizationId,
        allowed: ReadonlyArray<Role>
      ): Effect.Effect<Role, OrganizationNotFound | RoleNotPermitted | DatabaseUnavailable> =>
        Effect.flatMap(memberRole(session, organizationId), (role) =>
          allowed.includes(role) ? Effect.succeed(role) : Effect.fail(new RoleNotPermitted())
        )
    )

    /** `role` (the person a bearer credential acts for) must be one of `allowed`. */
    const delegatorRoleIn = (
      role: Role | null,
      allowed: ReadonlyArray<Role>
    ): Effect.Effect<void, DelegatorNotMember | RoleNotPermitted> => {
      if (role === null) return Effect.fail(new DelegatorNotMember())
      return allowed.includes(role)
        ? Effect.void
        : Effect.fail(
            new RoleNotPermitted({
              message: `The person this credential acts for is now ${role} of this organization; this action needs ${allowed.join(" or ")}.`
            })
          )
    }

    /**
     * The role of the person a bearer credential acts for, read now, which must be one of `allowed`.
     * An OAuth grant acts only in the membership it was made in, not in a later one of the same
     * person (removed and invited back): none then (extensions §8).
     */
    const requireDelegatorRole = (
      principal: BearerPrincipal,
      allowed: ReadonlyArray<Role>
    ): Effect.Effect<void, DelegatorNotMember | RoleNotPermitted | DatabaseUnavailable> =>
      Effect.flatMap(organizations.membershipOf(principal.actsFor, principal.organizationId), (found) =>
        delegatorRoleIn(
          Option.isSome(found) && (principal.kind !== "oauth" || found.value.id === principal.actsAsMember)
            ? found.value.role
            : null,
          allowed
        )
      )

    /** A bearer credential must be bound to this organization and hold `scope`. */
    const bearerBoundTo = (
      principal: BearerPrincipal,
      organizationId: OrganizationId,
      scope: GrantScope
    ): Effect.Effect<void, TokenForAnotherOrganization | TokenScopeMissing> => {
      if (principal.organizationId !== organizationId) {
        return Effect.fail(new TokenForAnotherOrganization())
      }
      const held: ReadonlyArray<GrantScope> = principal.scopes
      if (!held.includes(scope)) {
        return Effect.fail(
          new TokenScopeMissing({
            scope,
            wwwAuthenticate: apiResource.challenge({ error: "insufficient_scope", scope })
          })
        )
      }
      return Effect.void
    }

    /**
     * For reads open to bearer tokens and sessions: as `authorize`, but a bearer credential's person
     * is judged by the role read with the credential itself, in this request's first statement (a
     * read has nothing to lock, so reading it again a moment later would tell nothing more).
     */
    const authorizeRead = (
      principal: Principal,
      organizationId: OrganizationId,
      scope: GrantScope,
      roles: ReadonlyArray<Role>
    ): Effect.Effect<void, AuthorizationFailure> =>
      principal.kind === "session"
        ? Effect.flatMap(readRole(principal, organizationId), (role) =>
            roles.includes(role) ? Effect.void : Effect.fail(new RoleNotPermitted())
          )
        : Effect.zipRight(
            bearerBoundTo(principal, organizationId, scope),
            delegatorRoleIn(principal.actsForRole, roles)
          )

    /**
     * For operations open to bearer tokens and sessions: a token must be bound to this organization,
     * hold `scope`, and act for someone who is still a member with one of `roles` (read now, so that
     * a caller holding a lock sees the role as it stands under it); a session user must be a member
     * with one of `roles`.
     */
    const authorize = (
      principal: Principal,
      organizationId: OrganizationId,
      scope: GrantScope,
      roles: ReadonlyArray<Role>
    ): Effect.Effect<void, AuthorizationFailure> => {
      if (principal.kind === "session") return Effect.asVoid(requireRole(principal, organizationId, roles))
      return Effect.zipRight(
        bearerBoundTo(principal, organizationId, scope),
        requireDelegatorRole(principal, roles)
      )
    }

    return { memberRole, membership, requireRole, readRole, authorize, authorizeRead }
  })
}) {}
