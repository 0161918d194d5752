// SQL for invitations. A pending invitation past its expiry is reported `expired` by every read (the
// stored status is brought up to date lazily, when a new invitation for the same email is made).
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { keysetCondition, type Position } from "../Database/KeysetPage.js"
import type { Role } from "../Domain/Common.js"
import type { InvitationStatus } from "../Domain/Invitation.js"

export interface InvitationRow extends Position {
  readonly organizationId: string
  readonly email: string
  readonly role: Role
  readonly status: InvitationStatus
  readonly expiresAt: Date
}

export class InvitationRepo extends Effect.Service<InvitationRepo>()("InvitationRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(`
      id, organization_id, email, role, expires_at, created_at,
      CASE WHEN status = 'pending' AND expires_at <= now() THEN 'expired' ELSE status END AS status`)

    /** `limit` rows after `after`, newest first (served by `invitations_page_idx`). */
    const page = (organizationId: string, after: Option.Option<Position>, limit: number) =>
      sql<InvitationRow>`
        SELECT ${columns} FROM invitations
        WHERE organization_id = ${organizationId} AND ${keysetCondition(sql, after, "before")}
        ORDER BY created_at DESC, id DESC
        LIMIT ${limit}`

    /** The invitation, locked until the transaction ends (its status is about to be decided). */
    const findForUpdate = (invitationId: string) =>
      Effect.map(
        sql<InvitationRow>`SELECT ${columns} FROM invitations WHERE id = ${invitationId} FOR UPDATE`,
        (rows) => Option.fromNullable(rows[0])
      )

    /** Marks pending invitations for this email that are past their expiry as `expired`. */
    const expireStale = (organizationId: string, email: string) =>
      sql`
        UPDATE invitations SET status = 'expired', updated_at = now()
        WHERE organization_id = ${organizationId} AND lower(email) = lower(${email})
          AND status = 'pending' AND expires_at <= now()`.pipe(Effect.asVoid)

    /** Fails with the unique violation `invitations_one_pending` when one is already pending. */
    const insert = (invitation: {
      readonly id: string
      readonly organizationId: string
      readonly email: string
      readonly role: Role
      readonly invitedBy: string
      readonly ttlSeconds: number
    }) =>
      Effect.flatMap(
        sql<InvitationRow>`
          INSERT INTO invitations (id, organization_id, email, role, invited_by, expires_at)
          VALUES (${invitation.id}, ${invitation.organizationId}, ${invitation.email}, ${invitation.role},
            ${invitation.invitedBy}, date_trunc('milliseconds', now()) + make_interval(secs => ${invitation.ttlSeconds}::int))
          RETURNING ${columns}`,
        ([row]) =>
          row === undefined ? Effect.dieMessage("INSERT … RETURNING gave no row") : Effect.succeed(row)
      )

    const setStatus = (invitationId: string, status: Exclude<InvitationStatus, "pending">) =>
      sql`UPDATE invitations SET status = ${status}, updated_at = now() WHERE id = ${invitationId}`.pipe(
        Effect.asVoid
      )

    return { page, findForUpdate, expireStale, insert, setStatus }
  })
}) {}
