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

    /**
     * An owner may give any role to anyone; an admin may make non-owners `member` or `admin`; a
     * member may change nothing. The last owner cannot be demoted.
     */
    const updateRole = traced(
      "Members.updateRole",
      (session: SessionPrincipal, organizationId: OrganizationId, memberId: MemberId, role: Role) =>
        transactions.run(
          Effect.gen(function* () {
            yield* organizations.lockForChange(organizationId)
            const actor = yield* access.membership(session, organizationId)
            if (actor.role === "member") {
              return yield* new RoleNotPermitted({ message: "Members cannot change roles." })
            }
            const member = yield* target(organizationId, memberId)
            if (actor.role === "admin" && (member.role === "owner" || role === "owner")) {
              return yield* new RoleNotPermitted({
                message: "Admins may make non-owners members or admins; only owners manage owners."
              })
            }
            if (role !== "owner") yield* keepAnOwner(organizationId, member)
            if (member.role !== role) yield* repo.setRole(member.id, role)
          })
        )
    )

    /**
     * An owner may remove anyone, an admin non-owners, a member only themselves (leaving). The last
     * owner cannot be removed, not even by themselves.
     */
    const remove = traced(
      "Members.remove",
      (session: SessionPrincipal, organizationId: OrganizationId, memberId: MemberId) =>
        transactions.run(
          Effect.gen(function* () {
            yield* organizations.lockForChange(organizationId)
            const actor = yield* access.membership(session, organizationId)
            if (actor.role === "member" && actor.id !== memberId) {
              return yield* new RoleNotPermitted({ message: "Members may remove only themselves (leave)." })
            }
            const member = yield* target(organizationId, memberId)
            if (actor.role === "admin" && member.role === "owner") {
              return yield* new RoleNotPermitted({ message: "Admins cannot remove owners." })
            }
            yield* keepAnOwner(organizationId, member)
            yield* repo.remove(member.id)
            yield* sessions.clearActiveOrganization(member.userId, organizationId)
            // Their bearer credentials acted for them here: they end with the membership (extensions §5, §8).
            yield* apiTokens.revokeCreatedBy(organizationId, member.userId)
            yield* grants.revokeForMember(organizationId, member.userId)
          })
        )
    )

    return { list, updateRole, remove }
  })
}) {}
