// The rules of memberships (extensions §3): who may list, change and remove members, members
// leaving, and the last-owner rule. Each change runs in one transaction that first locks the
// organization's row, so the permission and last-owner checks still hold when the change commits.
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { BadRequest, Forbidden, NotFound } from "../../http/ApiError.js"
import { Sessions } from "../Accounts/Sessions.js"
import { readPage } from "../Database/KeysetPage.js"
import type { PageRequest, Role } from "../Domain/Common.js"
import { Member } from "../Domain/Member.js"
import { OrganizationAccess } from "../Organizations/OrganizationAccess.js"
import { OrganizationRepo } from "../Organizations/OrganizationRepo.js"
import type { SessionPrincipal } from "../Security/Principal.js"
import { MemberRepo, type TargetMember } from "./MemberRepo.js"

const memberNotFound = () => new NotFound({ message: "The member was not found in this organization." })

/** 400 with `data.reason` so clients can tell this refusal from a malformed request. */
export const lastOwner = () =>
  new BadRequest({
    message: "The last owner can be neither demoted nor removed. Make another member owner first.",
    data: { reason: "LAST_OWNER" }
  })

export class Members extends Effect.Service<Members>()("Members", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* MemberRepo
    const organizations = yield* OrganizationRepo
    const access = yield* OrganizationAccess
    const sessions = yield* Sessions

    /** Any member may list the members (a non-member gets 404). */
    const list = (session: SessionPrincipal, organizationId: string, page: PageRequest) =>
      Effect.zipRight(
        access.memberRole(session, organizationId),
        readPage(
          page,
          (after, limit) => repo.page(organizationId, after, limit),
          // Rows were validated on their way in, and the response is encoded against the schema anyway.
          (row) =>
            new Member(
              { id: row.id, userId: row.userId, name: row.name, email: row.email, role: row.role },
              true
            )
        )
      )

    /** Fails with LAST_OWNER when `target` is an owner and no other owner would remain. */
    const keepAnOwner = (organizationId: string, target: TargetMember) =>
      Effect.gen(function* () {
        if (target.role !== "owner") return
        if ((yield* repo.owners(organizationId)) <= 1) return yield* lastOwner()
      })

    /** The target member, which must belong to the organization (404 otherwise). */
    const target = (organizationId: string, memberId: string) =>
      Effect.flatMap(repo.find(organizationId, memberId), (found) =>
        Option.match(found, { onNone: () => Effect.fail(memberNotFound()), onSome: Effect.succeed })
      )

    /**
     * An owner may give any role to anyone; an admin may make non-owners `member` or `admin`; a
     * member may change nothing. The last owner cannot be demoted.
     */
    const updateRole = (session: SessionPrincipal, organizationId: string, memberId: string, role: Role) =>
      sql.withTransaction(
        Effect.gen(function* () {
          yield* organizations.lockForChange(organizationId)
          const actor = yield* access.membership(session, organizationId)
          if (actor.role === "member") {
            return yield* new Forbidden({ message: "Members cannot change roles." })
          }
          const member = yield* target(organizationId, memberId)
          if (actor.role === "admin" && (member.role === "owner" || role === "owner")) {
            return yield* new Forbidden({
              message: "Admins may make non-owners members or admins; only owners manage owners."
            })
          }
          if (role !== "owner") yield* keepAnOwner(organizationId, member)
          if (member.role !== role) yield* repo.setRole(member.id, role)
        })
      )

    /**
     * An owner may remove anyone, an admin non-owners, a member only themselves (leaving). The last
     * owner cannot be removed, not even by themselves.
     */
    const remove = (session: SessionPrincipal, organizationId: string, memberId: string) =>
      sql.withTransaction(
        Effect.gen(function* () {
          yield* organizations.lockForChange(organizationId)
          const actor = yield* access.membership(session, organizationId)
          if (actor.role === "member" && actor.id !== memberId) {
            return yield* new Forbidden({ message: "Members may remove only themselves (leave)." })
          }
          const member = yield* target(organizationId, memberId)
          if (actor.role === "admin" && member.role === "owner") {
            return yield* new Forbidden({ message: "Admins cannot remove owners." })
          }
          yield* keepAnOwner(organizationId, member)
          yield* repo.remove(member.id)
          yield* sessions.clearActiveOrganization(member.userId, organizationId)
        })
      )

    return { list, updateRole, remove }
  })
}) {}
