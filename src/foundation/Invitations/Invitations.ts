// The rules of invitations (extensions §3, §4): owners and admins invite (admins never as owner) and
// revoke; the invitee, signed in with the verified address the invitation was sent to, accepts or
// rejects. Only a pending invitation can be acted on (409 otherwise), and there is at most one
// pending invitation per email and organization. The invitee's message goes to the outbox in the
// same transaction as the invitation.
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Accounts } from "../Accounts/Accounts.js"
import { Transactions } from "../Database/DatabaseEdge.js"
import { PageCursors } from "../Database/KeysetPage.js"
import type { PageRequest, Role } from "../Domain/Common.js"
import {
  AlreadyMember,
  EmailNotVerified,
  InvitationForAnotherEmail,
  InvitationNotFound,
  InvitationNotPending,
  InviteeAlreadyMember,
  RoleNotPermitted
} from "../Domain/Errors.js"
import { InvitationId, MemberId, type OrganizationId } from "../Domain/Ids.js"
import { Invitation } from "../Domain/Invitation.js"
import { FoundationConfig } from "../FoundationConfig.js"
import { MemberRepo } from "../Members/MemberRepo.js"
import { OrganizationAccess } from "../Organizations/OrganizationAccess.js"
import { OrganizationRepo } from "../Organizations/OrganizationRepo.js"
import { Outbox } from "../Outbox/Outbox.js"
import type { SessionPrincipal } from "../Security/Principal.js"
import { newId } from "../Security/Secrets.js"
import { traced } from "../Traced.js"
import { InvitationRepo, type InvitationRow } from "./InvitationRepo.js"

/** Rows were decoded on their way out of the database, and responses are encoded against the schema anyway. */
const toInvitation = (row: InvitationRow) =>
  new Invitation(
    { id: row.id, email: row.email, role: row.role, status: row.status, expiresAt: row.expiresAt },
    true
  )

/**
 * How a signed-in person stands to an invitation, the one rule of who may answer it: the invitee is
 * the person whose email is the invitation's, and they answer it once that email is verified.
 */
export type InviteeStanding = "invitee" | "unverified" | "another-email"

const standingOf = (
  user: { readonly email: string; readonly emailVerified: boolean },
  invitation: { readonly email: string }
): InviteeStanding =>
  user.email.toLowerCase() !== invitation.email.toLowerCase()
    ? "another-email"
    : user.emailVerified
      ? "invitee"
      : "unverified"

/**
 * An invitation as its link shows it to the signed-in person. Someone else who holds the link learns
 * only that it is not theirs: the organization, role and address are for the invitee.
 */
export type InvitationForPerson =
  | { readonly standing: "another-email"; readonly signedInAs: string }
  | {
      readonly standing: "invitee" | "unverified"
      readonly signedInAs: string
      readonly invitation: Invitation
      readonly organizationName: string
    }

/** The path the invitee's link opens, under the public origin, with `?invitation=<id>`. */
export const INVITATION_LINK_PATH = "/accept-invitation"

export class Invitations extends Effect.Service<Invitations>()("Invitations", {
  effect: Effect.gen(function* () {
    const transactions = yield* Transactions
    const repo = yield* InvitationRepo
    const members = yield* MemberRepo
    const organizations = yield* OrganizationRepo
    const access = yield* OrganizationAccess
    const accounts = yield* Accounts
    const outbox = yield* Outbox
    const cursors = yield* PageCursors
    const { invitationTtl } = yield* FoundationConfig
    const ttlSeconds = Math.floor(Duration.toSeconds(invitationTtl))

    /** Any member may list the invitations, newest first, every status included. */
    const list = traced(
      "Invitations.list",
      (session: SessionPrincipal, organizationId: OrganizationId, page: PageRequest) =>
        Effect.zipRight(
          access.memberRole(session, organizationId),
          cursors.readPage(
            `invitations:${organizationId}`,
            page,
            (after, limit) => repo.page(organizationId, after, limit),
            toInvitation
          )
        )
    )

    /** An owner or admin (never an admin inviting an owner) invites someone who is not a member. */
    const create = traced(
      "Invitations.create",
      (
        session: SessionPrincipal,
        organizationId: OrganizationId,
        input: { readonly email: string; readonly role: Role }
      ) =>
        Effect.gen(function* () {
          const created = yield* transactions.run(
            Effect.gen(function* () {
              yield* organizations.lockForChange(organizationId)
              const actor = yield* access.memberRole(session, organizationId)
              if (actor === "member")
                return yield* new RoleNotPermitted({ message: "Members cannot invite." })
              if (actor === "admin" && input.role === "owner") {
                return yield* new RoleNotPermitted({ message: "Admins cannot invite owners." })
              }
              if (yield* members.hasMemberWithEmail(organizationId, input.email)) {
                return yield* new InviteeAlreadyMember()
              }
              // A lapsed invitation no longer counts as the one pending invitation for this email.
              yield* repo.expireStale(organizationId, input.email)
              const row = yield* repo.insert({
                id: InvitationId.make(newId("inv")),
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
        })
    )

    /** An owner or admin revokes a pending invitation of the organization (admins not an owner's). */
    const revoke = traced(
      "Invitations.revoke",
      (session: SessionPrincipal, organizationId: OrganizationId, invitationId: InvitationId) =>
        transactions.run(
          Effect.gen(function* () {
            yield* organizations.lockForChange(organizationId)
            const actor = yield* access.memberRole(session, organizationId)
            if (actor === "member") {
              return yield* new RoleNotPermitted({ message: "Members cannot revoke invitations." })
            }
            const invitation = yield* repo.findForUpdate(invitationId)
            if (Option.isNone(invitation) || invitation.value.organizationId !== organizationId) {
              return yield* new InvitationNotFound()
            }
            if (actor === "admin" && invitation.value.role === "owner") {
              return yield* new RoleNotPermitted({
                message: "Admins cannot revoke an invitation to become owner."
              })
            }
            if (invitation.value.status !== "pending") {
              return yield* new InvitationNotPending({ invitationStatus: invitation.value.status })
            }
            yield* repo.setStatus(invitationId, "revoked")
          })
        )
    )

    /**
     * The pending invitation addressed to the caller, locked: 404 when there is none by that id,
     * 403 unless the caller's verified email is the invitation's, 409 when it is not pending.
     */
    const addressedToCaller = (session: SessionPrincipal, invitationId: InvitationId) =>
      Effect.gen(function* () {
        const found = yield* repo.findForUpdate(invitationId)
        if (Option.isNone(found)) return yield* new InvitationNotFound()
        const invitation = found.value
        const standing = standingOf(yield* accounts.profile(session.userId), invitation)
        if (standing === "another-email") return yield* new InvitationForAnotherEmail()
        if (standing === "unverified") return yield* new EmailNotVerified()
        if (invitation.status !== "pending") {
          return yield* new InvitationNotPending({ invitationStatus: invitation.status })
        }
        return invitation
      })

    /** Joins the organization with the invitation's role. */
    const accept = traced("Invitations.accept", (session: SessionPrincipal, invitationId: InvitationId) =>
      transactions.run(
        Effect.gen(function* () {
          const invitation = yield* addressedToCaller(session, invitationId)
          if (Option.isSome(yield* organizations.membershipOf(session.userId, invitation.organizationId))) {
            return yield* new AlreadyMember()
          }
          yield* organizations.insertMember({
            id: MemberId.make(newId("mem")),
            organizationId: invitation.organizationId,
            userId: session.userId,
            role: invitation.role
          })
          yield* repo.setStatus(invitationId, "accepted")
          return invitation.organizationId
        })
      )
    )

    const reject = traced("Invitations.reject", (session: SessionPrincipal, invitationId: InvitationId) =>
      transactions.run(
        Effect.gen(function* () {
          yield* addressedToCaller(session, invitationId)
          yield* repo.setStatus(invitationId, "rejected")
        })
      )
    )

    /** The invitation behind a link, as the signed-in person may see it (404 when there is none). */
    const forPerson = traced(
      "Invitations.forPerson",
      (session: SessionPrincipal, invitationId: InvitationId) =>
        Effect.gen(function* () {
          const found = yield* repo.find(invitationId)
          if (Option.isNone(found)) return yield* new InvitationNotFound()
          const user = yield* accounts.profile(session.userId)
          const standing = standingOf(user, found.value)
          if (standing === "another-email") {
            return { standing, signedInAs: user.email } satisfies InvitationForPerson
          }
          const organizationName = yield* organizations.nameOf(found.value.organizationId)
          if (Option.isNone(organizationName)) return yield* new InvitationNotFound()
          return {
            standing,
            signedInAs: user.email,
            invitation: toInvitation(found.value),
            organizationName: organizationName.value
          } satisfies InvitationForPerson
        })
    )

    return { list, create, revoke, accept, reject, forPerson }
  })
}) {}
