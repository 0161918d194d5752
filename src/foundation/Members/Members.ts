// The rules of memberships (extensions §3): who may list, change and remove members, members
// leaving (which ends the API tokens and OAuth grants that acted for them there), and the last-owner
// rule. Each change runs in one transaction that first locks the organization's row, so the
// permission and last-owner checks still hold when the change commits.
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Sessions } from "../Accounts/Sessions.js"
import { Transactions } from "../Database/DatabaseEdge.js"
import { PageCursors } from "../Database/KeysetPage.js"
import { builtOnce } from "../Database/RememberedRows.js"
import type { PageRequest, Role } from "../Domain/Common.js"
import { LastOwner, MemberNotFound, RoleNotPermitted } from "../Domain/Errors.js"
import type { MemberId, OrganizationId } from "../Domain/Ids.js"
import { Member } from "../Domain/Member.js"
import { GrantRepo } from "../OAuth/GrantRepo.js"
import { OrganizationAccess } from "../Organizations/OrganizationAccess.js"
import { OrganizationRepo } from "../Organizations/OrganizationRepo.js"
import type { SessionPrincipal } from "../Security/Principal.js"
import { ApiTokens } from "../Tokens/ApiTokens.js"
import { traced } from "../Traced.js"
import { MemberRepo, type MemberRow, type TargetMember } from "./MemberRepo.js"

/**
 * Why `actor` may not give `target` the role `role` (extensions §3), or undefined when they may: an
 * owner may give any role to anyone; an admin may make non-owners members or admins; a member may
 * change nothing. (The last-owner rule is checked apart: it depends on the other owners.) The
 * service enforces it, and the console offers only what it allows.
 */
export const roleChangeRefusal = (actor: Role, target: Role, role: Role): string | undefined => {
  if (actor === "member") return "Members cannot change roles."
  if (actor === "admin" && (target === "owner" || role === "owner")) {
    return "Admins may make non-owners members or admins; only owners manage owners."
  }
  return undefined
}

/**
 * Why `actor` may not remove `target` (extensions §3), or undefined when they may: an owner may remove
 * anyone, an admin non-owners, a member only themselves (leaving). `target.role` may be unknown yet
 * (undefined): then only what does not depend on it is judged.
 */
export const removalRefusal = (
  actor: { readonly id: MemberId; readonly role: Role },
  target: { readonly id: MemberId; readonly role: Role | undefined }
): string | undefined => {
  if (actor.role === "member" && actor.id !== target.id) return "Members may remove only themselves (leave)."
  if (actor.role === "admin" && target.role === "owner") return "Admins cannot remove owners."
  return undefined
}

/** Fails with RoleNotPermitted saying `refusal`, if there is one. */
const refuse = (refusal: string | undefined) =>
  refusal === undefined ? Effect.void : Effect.fail(new RoleNotPermitted({ message: refusal }))

export class Members extends Effect.Service<Members>()("Members", {
  effect: Effect.gen(function* () {
    const transactions = yield* Transactions
    const repo = yield* MemberRepo
    const organizations = yield* OrganizationRepo
    const access = yield* OrganizationAccess
    const sessions = yield* Sessions
    const cursors = yield* PageCursors
    const apiTokens = yield* ApiTokens
    const grants = yield* GrantRepo

    // Rows were decoded by Member's own field schemas on their way out of the database, and a row
    // read again is the same remembered row: its Member is built once.
    const memberOf = builtOnce(
      (row: MemberRow): Member =>
        new Member({ id: row.id, userId: row.userId, name: row.name, email: row.email, role: row.role }, true)
    )

    /** Any member may list the members (a non-member gets 404). */
    const list = traced(
      "Members.list",
      (session: SessionPrincipal, organizationId: OrganizationId, page: PageRequest) =>
        Effect.zipRight(
          access.readRole(session, organizationId),
          cursors.readPage(
            `members:${organizationId}`,
            page,
            (after, limit) => repo.page(organizationId, after, limit),
            memberOf
          )
        )
    )

    /** Fails with LAST_OWNER when `target` is an owner and no other owner would remain. */
    const keepAnOwner = (organizationId: OrganizationId, target: TargetMember) =>
      Effect.gen(function* () {
        if (target.role !== "owner") return
        if ((yield* repo.owners(organizationId)) <= 1) return yield* new LastOwner()
      })

    /** The target member, which must belong to the organization (404 otherwise). */
    const target = (organizationId: OrganizationId, memberId: MemberId) =>
      Effect.flatMap(repo.find(organizationId, memberId), (found) =>
        Option.match(found, { onNone: () => Effect.fail(new MemberNotFound()), onSome: Effect.succeed })
      )

    /** As `roleChangeRefusal` allows; the last owner cannot be demoted. */
    const updateRole = traced(
      "Members.updateRole",
      (session: SessionPrincipal, organizationId: OrganizationId, memberId: MemberId, role: Role) =>
        transactions.run(
          Effect.gen(function* () {
            yield* organizations.lockForChange(organizationId)
            const actor = yield* access.membership(session, organizationId)
            // A member may change nothing: judged before looking the target up (403 before 404).
            if (actor.role === "member") yield* refuse(roleChangeRefusal(actor.role, "member", role))
            const member = yield* target(organizationId, memberId)
            yield* refuse(roleChangeRefusal(actor.role, member.role, role))
            if (role !== "owner") yield* keepAnOwner(organizationId, member)
            if (member.role !== role) yield* repo.setRole(member.id, role)
          })
        )
    )

    /** As `removalRefusal` allows; the last owner cannot be removed, not even by themselves. */
    const remove = traced(
      "Members.remove",
      (session: SessionPrincipal, organizationId: OrganizationId, memberId: MemberId) =>
        transactions.run(
          Effect.gen(function* () {
            yield* organizations.lockForChange(organizationId)
            const actor = yield* access.membership(session, organizationId)
            // What does not depend on the target is judged before looking it up.
            yield* refuse(removalRefusal(actor, { id: memberId, role: undefined }))
            const member = yield* target(organizationId, memberId)
            yield* refuse(removalRefusal(actor, member))
            yield* keepAnOwner(organizationId, member)
            yield* repo.remove(member.id)
            yield* sessions.clearActiveOrganization(member.userId, organizationId)
            // Their bearer credentials acted for them here: they end with the membership (extensions §5, §8).
            yield* apiTokens.revokeCreatedBy(organizationId, member.userId)
            yield* grants.revokeForMember(organizationId, member.userId)
          })
        )
    )

    /** How many owners the organization has, for any member (a page says whether one may leave). */
    const ownerCount = traced(
      "Members.ownerCount",
      (session: SessionPrincipal, organizationId: OrganizationId) =>
        Effect.zipRight(access.readRole(session, organizationId), repo.owners(organizationId))
    )

    return { list, updateRole, remove, ownerCount }
  })
}) {}
