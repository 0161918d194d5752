// SQL for OAuth grants, the connections of extensions §8: created at a code's first exchange, listed
// per person and per organization (keyset pages, newest first), and revoked (never deleted at once)
// with the reason, so reuse detection can still find the grant a replayed secret belongs to.
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { repositoryCall } from "../Database/DatabaseEdge.js"
import { keysetCondition, type Position } from "../Database/KeysetPage.js"
import { GrantScope } from "../Domain/Common.js"
import { GrantId, type MemberId, OrganizationId, UserId } from "../Domain/Ids.js"

/** Why a grant ended (the column's CHECK lists the same). */
export type RevocationReason =
  | "person"
  | "organization_admin"
  | "member_removed"
  | "code_reuse"
  | "refresh_reuse"
  | "client_revoked"
  | "expired"

/** A grant as a connections list shows it, with the person it acts for. */
export const ConnectionRow = Schema.Struct({
  id: GrantId,
  clientId: Schema.String,
  clientName: Schema.NullOr(Schema.String),
  organizationId: OrganizationId,
  organizationName: Schema.String,
  scopes: Schema.Array(GrantScope),
  resource: Schema.String,
  createdAt: Schema.DateFromSelf,
  lastUsedAt: Schema.NullOr(Schema.DateFromSelf),
  userId: UserId,
  userName: Schema.String,
  userEmail: Schema.String
})
export type ConnectionRow = typeof ConnectionRow.Type

const decodeRows = Schema.decodeUnknown(Schema.Array(ConnectionRow))

export class GrantRepo extends Effect.Service<GrantRepo>()("GrantRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const listed = sql.literal(`
      g.id, g.client_id, c.name AS client_name, g.organization_id, o.name AS organization_name, g.scopes,
      g.resource, g.created_at, g.last_used_at, g.user_id, u.name AS user_name, u.email AS user_email
      FROM oauth_grants g
      JOIN oauth_clients c ON c.id = g.client_id
      JOIN organizations o ON o.id = g.organization_id
      JOIN users u ON u.id = g.user_id`)

    const insert = repositoryCall(
      "GrantRepo.insert",
      (grant: {
        readonly id: GrantId
        readonly clientId: string
        readonly userId: UserId
        readonly organizationId: OrganizationId
        readonly memberId: MemberId
        readonly resource: string
        readonly scopes: ReadonlyArray<GrantScope>
      }) =>
        sql`
          INSERT INTO oauth_grants (id, client_id, user_id, organization_id, member_id, resource, scopes)
          VALUES (${grant.id}, ${grant.clientId}, ${grant.userId}, ${grant.organizationId}, ${grant.memberId},
            ${grant.resource}, ${`{${grant.scopes.join(",")}}`}::text[])`.pipe(Effect.asVoid)
    )

    /** Revokes a live grant; false when there is none by that id. */
    const revoke = repositoryCall("GrantRepo.revoke", (id: GrantId, reason: RevocationReason) =>
      Effect.map(
        sql`
          UPDATE oauth_grants SET revoked_at = now(), revoked_reason = ${reason}
          WHERE id = ${id} AND revoked_at IS NULL RETURNING id`,
        (rows) => rows.length > 0
      )
    )

    /** Revokes the person's own live grant; false when they have none by that id. */
    const revokeOwn = repositoryCall("GrantRepo.revokeOwn", (id: GrantId, userId: UserId) =>
      Effect.map(
        sql`
          UPDATE oauth_grants SET revoked_at = now(), revoked_reason = 'person'
          WHERE id = ${id} AND user_id = ${userId} AND revoked_at IS NULL RETURNING id`,
        (rows) => rows.length > 0
      )
    )

    /** Revokes a live grant on the organization; false when it has none by that id. */
    const revokeInOrganization = repositoryCall(
      "GrantRepo.revokeInOrganization",
      (id: GrantId, organizationId: OrganizationId) =>
        Effect.map(
          sql`
            UPDATE oauth_grants SET revoked_at = now(), revoked_reason = 'organization_admin'
            WHERE id = ${id} AND organization_id = ${organizationId} AND revoked_at IS NULL RETURNING id`,
          (rows) => rows.length > 0
        )
    )

    /** The grant's scopes become `scopes` (fewer: the person may no longer grant the others). */
    const narrow = repositoryCall("GrantRepo.narrow", (id: GrantId, scopes: ReadonlyArray<GrantScope>) =>
      sql`UPDATE oauth_grants SET scopes = ${`{${scopes.join(",")}}`}::text[] WHERE id = ${id}`.pipe(
        Effect.asVoid
      )
    )

    /** Ends every grant the person approved on the organization (they left it, or were removed). */
    const revokeForMember = repositoryCall(
      "GrantRepo.revokeForMember",
      (organizationId: OrganizationId, userId: UserId) =>
        sql`
          UPDATE oauth_grants SET revoked_at = now(), revoked_reason = 'member_removed'
          WHERE organization_id = ${organizationId} AND user_id = ${userId} AND revoked_at IS NULL`.pipe(
          Effect.asVoid
        )
    )

    /** `limit` of the person's live grants after `after`, newest first. */
    const pageForUser = repositoryCall(
      "GrantRepo.pageForUser",
      (userId: UserId, after: Option.Option<Position>, limit: number) =>
        Effect.flatMap(
          sql`
            SELECT ${listed}
            WHERE g.user_id = ${userId} AND g.revoked_at IS NULL AND ${keysetCondition(sql, after, "before", "g.")}
            ORDER BY g.created_at DESC, g.id DESC
            LIMIT ${limit}`,
          decodeRows
        )
    )

    /** `limit` of the organization's live grants after `after`, newest first. */
    const pageForOrganization = repositoryCall(
      "GrantRepo.pageForOrganization",
      (organizationId: OrganizationId, after: Option.Option<Position>, limit: number) =>
        Effect.flatMap(
          sql`
            SELECT ${listed}
            WHERE g.organization_id = ${organizationId} AND g.revoked_at IS NULL
              AND ${keysetCondition(sql, after, "before", "g.")}
            ORDER BY g.created_at DESC, g.id DESC
            LIMIT ${limit}`,
          decodeRows
        )
    )

    return {
      insert,
      revoke,
      revokeOwn,
      revokeInOrganization,
      revokeForMember,
      narrow,
      pageForUser,
      pageForOrganization
    }
  })
}) {}
