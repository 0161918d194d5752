// SQL for the members of an organization: the keyset-paged list (in the order they joined), one
// membership, role changes, removal and the owner count behind the last-owner rule.
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { repositoryCall } from "../Database/DatabaseEdge.js"
import { keysetCondition, type Position } from "../Database/KeysetPage.js"
import { rememberedRows } from "../Database/RememberedRows.js"
import { UntracedStatements } from "../Database/UntracedStatements.js"
import { Role } from "../Domain/Common.js"
import { MemberId, OrganizationId, UserId } from "../Domain/Ids.js"
import { Member } from "../Domain/Member.js"

/**
 * A row of the members list, every field of the item checked here by the `Member` schema's own field
 * schemas: once, on the way out of the database, so that the read fast path can write the page
 * without checking each field a second time (see ReadFastPath.ts).
 */
export const MemberRow = Schema.Struct({
  id: Member.fields.id,
  userId: Member.fields.userId,
  name: Member.fields.name,
  email: Member.fields.email,
  role: Member.fields.role,
  createdAt: Schema.DateFromSelf
})
export type MemberRow = typeof MemberRow.Type

/** The member a change is about: its membership, role and person. */
export const TargetMember = Schema.Struct({ id: MemberId, userId: UserId, role: Role })
export type TargetMember = typeof TargetMember.Type

export class MemberRepo extends Effect.Service<MemberRepo>()("MemberRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const statements = yield* UntracedStatements
    const memberRows = rememberedRows(MemberRow, "id")

    /** `limit` rows after `after`, oldest membership first (served by `members_page_idx`). */
    const page = repositoryCall(
      "MemberRepo.page",
      (organizationId: OrganizationId, after: Option.Option<Position>, limit: number) =>
        statements.all(
          sql`
            SELECT m.id, m.user_id, u.name, u.email, m.role, m.created_at
            FROM members m JOIN users u ON u.id = m.user_id
            WHERE m.organization_id = ${organizationId} AND ${keysetCondition(sql, after, "after", "m.")}
            ORDER BY m.created_at, m.id
            LIMIT ${limit}`,
          memberRows
        )
    )

    const findRow = SqlSchema.findOne({
      Request: Schema.Struct({ organizationId: OrganizationId, memberId: MemberId }),
      Result: TargetMember,
      execute: ({ organizationId, memberId }) => sql`
        SELECT id, user_id, role FROM members WHERE id = ${memberId} AND organization_id = ${organizationId}`
    })

    const find = repositoryCall("MemberRepo.find", (organizationId: OrganizationId, memberId: MemberId) =>
      findRow({ organizationId, memberId })
    )

    const countOwners = SqlSchema.single({
      Request: OrganizationId,
      Result: Schema.Struct({ count: Schema.Int }),
      execute: (organizationId) => sql`
        SELECT count(*)::int AS count FROM members WHERE organization_id = ${organizationId} AND role = 'owner'`
    })

    const owners = repositoryCall("MemberRepo.owners", (organizationId: OrganizationId) =>
      countOwners(organizationId).pipe(
        // An aggregate always returns its row.
        Effect.catchTag("NoSuchElementException", (error) => Effect.die(error)),
        Effect.map((row) => row.count)
      )
    )

    const setRole = repositoryCall("MemberRepo.setRole", (memberId: MemberId, role: Role) =>
      sql`UPDATE members SET role = ${role} WHERE id = ${memberId}`.pipe(Effect.asVoid)
    )

    const remove = repositoryCall("MemberRepo.remove", (memberId: MemberId) =>
      sql`DELETE FROM members WHERE id = ${memberId}`.pipe(Effect.asVoid)
    )

    /** True when a user with this email (any case) is a member of the organization. */
    const hasMemberWithEmail = repositoryCall(
      "MemberRepo.hasMemberWithEmail",
      (organizationId: OrganizationId, email: string) =>
        Effect.map(
          sql`
            SELECT 1 FROM members m JOIN users u ON u.id = m.user_id
            WHERE m.organization_id = ${organizationId} AND lower(u.email) = lower(${email})`,
          (rows) => rows.length > 0
        )
    )

    return { page, find, owners, setRole, remove, hasMemberWithEmail }
  })
}) {}
