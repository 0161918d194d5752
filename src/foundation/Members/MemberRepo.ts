// SQL for the members of an organization: the keyset-paged list (in the order they joined), one
// membership, role changes, removal and the owner count behind the last-owner rule.
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { keysetCondition, type Position } from "../Database/KeysetPage.js"
import type { Role } from "../Domain/Common.js"
import type { Membership } from "../Organizations/OrganizationRepo.js"

export interface MemberRow extends Position {
  readonly userId: string
  readonly name: string
  readonly email: string
  readonly role: Role
}

export interface TargetMember extends Membership {
  readonly userId: string
}

export class MemberRepo extends Effect.Service<MemberRepo>()("MemberRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** `limit` rows after `after`, oldest membership first (served by `members_page_idx`). */
    const page = (organizationId: string, after: Option.Option<Position>, limit: number) =>
      sql<MemberRow>`
        SELECT m.id, m.user_id, u.name, u.email, m.role, m.created_at
        FROM members m JOIN users u ON u.id = m.user_id
        WHERE m.organization_id = ${organizationId} AND ${keysetCondition(sql, after, "after", "m.")}
        ORDER BY m.created_at, m.id
        LIMIT ${limit}`

    const find = (organizationId: string, memberId: string) =>
      Effect.map(
        sql<TargetMember>`
          SELECT id, user_id, role FROM members WHERE id = ${memberId} AND organization_id = ${organizationId}`,
        (rows) => Option.fromNullable(rows[0])
      )

    const owners = (organizationId: string) =>
      Effect.map(
        sql<{ count: number }>`
          SELECT count(*)::int AS count FROM members WHERE organization_id = ${organizationId} AND role = 'owner'`,
        (rows) => rows[0]?.count ?? 0
      )

    const setRole = (memberId: string, role: Role) =>
      sql`UPDATE members SET role = ${role} WHERE id = ${memberId}`.pipe(Effect.asVoid)

    const remove = (memberId: string) => sql`DELETE FROM members WHERE id = ${memberId}`.pipe(Effect.asVoid)

    /** True when a user with this email (any case) is a member of the organization. */
    const hasMemberWithEmail = (organizationId: string, email: string) =>
      Effect.map(
        sql`
          SELECT 1 FROM members m JOIN users u ON u.id = m.user_id
          WHERE m.organization_id = ${organizationId} AND lower(u.email) = lower(${email})`,
        (rows) => rows.length > 0
      )

    return { page, find, owners, setRole, remove, hasMemberWithEmail }
  })
}) {}
