// The rules of invitations (extensions §3, §4): owners and admins invite (admins never as owner) and
// revoke; the invitee, signed in with the verified address the invitation was sent to, accepts or
// rejects. Only a pending invitation can be acted on (409 otherwise), and there is at most one
// pending invitation per email and organization. The invitee's message goes to the outbox in the
// same transaction as the invitation.
import * as SqlClient from "@effect/sql/SqlClient"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Conflict, Forbidden, NotFound } from "../../http/ApiError.js"
import { Accounts } from "../Accounts/Accounts.js"
import { readPage } from "../Database/KeysetPage.js"
import { isUniqueViolation } from "../Database/Rows.js"
import type { PageRequest, Role } from "../Domain/Common.js"
import { Invitation } from "../Domain/Invitation.js"
import { FoundationConfig } from "../FoundationConfig.js"
import { MemberRepo } from "../Members/MemberRepo.js"
import { OrganizationAccess } from "../Organizations/OrganizationAccess.js"
import { OrganizationRepo } from "../Organizations/OrganizationRepo.js"
import { Outbox } from "../Outbox/Outbox.js"
import type { SessionPrincipal } from "../Security/Principal.js"
import { newId } from "../Security/Secrets.js"
import { InvitationRepo, type InvitationRow } from "./InvitationRepo.js"

const invitationNotFound = () => new NotFound({ message: "The invitation was not found." })
const alreadyPending = () =>
  new Conflict({ message: "A pending invitation for this email already exists in this organization." })
const alreadyMember = () => new Conflict({ message: "This person is already a member of this organization." })
const notPending = (status: string) =>
  new Conflict({ message: `This invitation is ${status}; only a pending invitation can be acted on.` })

/** Rows were validated on their way in, and responses are encoded against the schema anyway. */
const toInvitation = (row: InvitationRow) =>
  new Invitation(
    { id: row.id, email: row.email, role: row.role, status: row.status, expiresAt: row.expiresAt },
    true
  )

/** The path the invitee's link opens, under the public origin, with `?invitation=<id>`. */
export const INVITATION_LINK_PATH = "/accept-invitation"

export class Invitations extends Effect.Service<Invitations>()("Invitations", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* InvitationRepo
    const members = yield* MemberRepo
    const organizations = yield* OrganizationRepo
    const access = yield* OrganizationAccess
    const accounts = yield* Accounts
    const outbox = yield* Outbox
    const { invitationTtl } = yield* FoundationConfig
    const ttlSeconds = Math.floor(Duration.toSeconds(invitationTtl))

    /** Any member may list the invitations, newest first, every status included. */
    const list = (session: SessionPrincipal, organizationId: string, page: PageRequest) =>
      Effect.zipRight(
        access.memberRole(session, organizationId),
        readPage(page, (after, limit) => repo.page(organizationId, after, limit), toInvitation)
      )

    /** An owner or admin (never an admin inviting an owner) invites someone who is not a member. */
    const create = (
      session: SessionPrincipal,
      organizationId: string,
      input: { readonly email: string; readonly role: Role }
    ) =>
      Effect.gen(function* () {
        const created = yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* organizations.lockForChange(organizationId)
            const actor = yield* access.memberRole(session, organizationId)
            if (actor === "member") return yield* new Forbidden({ message: "Members cannot invite." })
            if (actor === "admin" && input.role === "owner") {
              return yield* new Forbidden({ message: "Admins cannot invite owners." })
            }
            if (yield* members.hasMemberWithEmail(organizationId, input.email)) return yield* alreadyMember()
            // A lapsed invitation no longer counts as the one pending invitation for this email.
            yield* repo.expireStale(organizationId, input.email)
            const row = yield* repo.insert({
              id: newId("inv"),
              organizationId,
              email: input.email,
              role: input.role,
              invitedBy: session.userId,
              ttlSeconds
            })
            yield* outbox.enqueue({
              kind: "invitation",
              recipient: input.email,
              link: outbox.link(INVITATION_LINK_PATH, row.id, "invitation")
            })
            return row
          })
        )
        yield* outbox.wake
        return toInvitation(created)
      }).pipe(
        Effect.catchIf(
          (error) => error._tag === "SqlError" && isUniqueViolation(error, "invitations_one_pending"),
          () => Effect.fail(alreadyPending())
        )
      )

    /** An owner or admin revokes a pending invitation of the organization (admins not an owner's). */
    const revoke = (session: SessionPrincipal, organizationId: string, invitationId: string) =>
      sql.withTransaction(
        Effect.gen(function* () {
          yield* organizations.lockForChange(organizationId)
          const actor = yield* access.memberRole(session, organizationId)
          if (actor === "member")
            return yield* new Forbidden({ message: "Members cannot revoke invitations." })
          const invitation = yield* repo.findForUpdate(invitationId)
          if (Option.isNone(invitation) || invitation.value.organizationId !== organizationId) {
            return yield* invitationNotFound()
          }
          if (actor === "admin" && invitation.value.role === "owner") {
            return yield* new Forbidden({ message: "Admins cannot revoke an invitation to become owner." })
          }
          if (invitation.value.status !== "pending") return yield* notPending(invitation.value.status)
          yield* repo.setStatus(invitationId, "revoked")
        })
      )

    /**
     * The pending invitation addressed to the caller, locked: 404 when there is none by that id,
     * 403 unless the caller's verified email is the invitation's, 409 when it is not pending.
     */
    const addressedToCaller = (session: SessionPrincipal, invitationId: string) =>
      Effect.gen(function* () {
        const found = yield* repo.findForUpdate(invitationId)
        if (Option.isNone(found)) return yield* invitationNotFound()
        const invitation = found.value
        const user = yield* accounts.profile(session.userId)
        if (user.email.toLowerCase() !== invitation.email.toLowerCase()) {
          return yield* new Forbidden({ message: "This invitation was sent to another email address." })
        }
        if (!user.emailVerified) {
          return yield* new Forbidden({
            message: "Verify your email address before answering this invitation."
          })
        }
        if (invitation.status !== "pending") return yield* notPending(invitation.status)
        return invitation
      })

    /** Joins the organization with the invitation's role. */
    const accept = (session: SessionPrincipal, invitationId: string) =>
      sql
        .withTransaction(
          Effect.gen(function* () {
            const invitation = yield* addressedToCaller(session, invitationId)
            if (Option.isSome(yield* organizations.membershipOf(session.userId, invitation.organizationId))) {
              return yield* new Conflict({ message: "You are already a member of this organization." })
            }
            yield* organizations.insertMember({
              id: newId("mem"),
              organizationId: invitation.organizationId,
              userId: session.userId,
              role: invitation.role
            })
            yield* repo.setStatus(invitationId, "accepted")
            return invitation.organizationId
          })
        )
        .pipe(
          Effect.catchIf(
            (error) => error._tag === "SqlError" && isUniqueViolation(error, "members_one_per_user"),
            () => Effect.fail(new Conflict({ message: "You are already a member of this organization." }))
          )
        )

    const reject = (session: SessionPrincipal, invitationId: string) =>
      sql.withTransaction(
        Effect.gen(function* () {
          yield* addressedToCaller(session, invitationId)
          yield* repo.setStatus(invitationId, "rejected")
        })
      )

    return { list, create, revoke, accept, reject }
  })
}) {}
