// SQL for invitations. A pending invitation past its expiry is reported `expired` by every read (the
// stored status is brought up to date lazily, when a new invitation for the same email is made).
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { onUniqueViolation, repositoryCall } from "../Database/DatabaseEdge.js"
import { keysetCondition, type Position } from "../Database/KeysetPage.js"
import { Role } from "../Domain/Common.js"
import { InvitationAlreadyPending } from "../Domain/Errors.js"
import { InvitationId, OrganizationId, type UserId } from "../Domain/Ids.js"
import { InvitationStatus } from "../Domain/Invitation.js"

/** An invitation as stored, with the organization it is for and its position in lists. */
export const InvitationRow = Schema.Struct({
  id: InvitationId,
  organizationId: OrganizationId,
  email: Schema.String,
  role: Role,
  status: InvitationStatus,
  expiresAt: Schema.DateFromSelf,
  createdAt: Schema.DateFromSelf
})
export type InvitationRow = typeof InvitationRow.Type

const decodeRows = Schema.decodeUnknown(Schema.Array(InvitationRow))

export class InvitationRepo extends Effect.Service<InvitationRepo>()("InvitationRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(`
      id, organization_id, email, role, expires_at, created_at,
      CASE WHEN status = 'pending' AND expires_at <= now() THEN 'expired' ELSE status END AS status`)

    /** `limit` rows after `after`, newest first (served by `invitations_page_idx`). */
    const page = repositoryCall(
      "InvitationRepo.page",
      (organizationId: OrganizationId, after: Option.Option<Position>, limit: number) =>
        Effect.flatMap(
          sql`
            SELECT ${columns} FROM invitations
            WHERE organization_id = ${organizationId} AND ${keysetCondition(sql, after, "before")}
            ORDER BY created_at DESC, id DESC
            LIMIT ${limit}`,
          decodeRows
        )
    )

    /** The invitation, locked until the transaction ends (its status is about to be decided). */
    const findForUpdate = repositoryCall(
      "InvitationRepo.findForUpdate",
      SqlSchema.findOne({
        Request: InvitationId,
        Result: InvitationRow,
        execute: (invitationId) =>
          sql`SELECT ${columns} FROM invitations WHERE id = ${invitationId} FOR UPDATE`
      })
    )

    /** The invitation as it stands, for showing (no lock). */
    const find = repositoryCall(
      "InvitationRepo.find",
      SqlSchema.findOne({
        Request: InvitationId,
        Result: InvitationRow,
        execute: (invitationId) => sql`SELECT ${columns} FROM invitations WHERE id = ${invitationId}`
      })
    )

    /** Marks pending invitations for this email that are past their expiry as `expired`. */
    const expireStale = repositoryCall(
      "InvitationRepo.expireStale",
      (organizationId: OrganizationId, email: string) =>
        sql`
          UPDATE invitations SET status = 'expired', updated_at = now()
          WHERE organization_id = ${organizationId} AND lower(email) = lower(${email})
            AND status = 'pending' AND expires_at <= now()`.pipe(Effect.asVoid)
    )

    /** Fails with `InvitationAlreadyPending` when one is already pending for this email. */
    const insert = repositoryCall(
      "InvitationRepo.insert",
      (invitation: {
        readonly id: InvitationId
        readonly organizationId: OrganizationId
        readonly email: string
        readonly role: Role
        readonly invitedBy: UserId
        readonly ttlSeconds: number
      }) =>
        SqlSchema.single({
          Request: Schema.Void,
          Result: InvitationRow,
          execute: () => sql`
            INSERT INTO invitations (id, organization_id, email, role, invited_by, expires_at)
            VALUES (${invitation.id}, ${invitation.organizationId}, ${invitation.email}, ${invitation.role},
              ${invitation.invitedBy}, date_trunc('milliseconds', now()) + make_interval(secs => ${invitation.ttlSeconds}::int))
            RETURNING ${columns}`
        })(undefined).pipe(
          Effect.catchTag("NoSuchElementException", (error) => Effect.die(error)),
          onUniqueViolation("invitations_one_pending", () => new InvitationAlreadyPending())
        )
    )

    const setStatus = repositoryCall(
      "InvitationRepo.setStatus",
      (invitationId: InvitationId, status: Exclude<InvitationStatus, "pending">) =>
        sql`UPDATE invitations SET status = ${status}, updated_at = now() WHERE id = ${invitationId}`.pipe(
          Effect.asVoid
        )
    )

    return { page, find, findForUpdate, expireStale, insert, setStatus }
  })
}) {}
