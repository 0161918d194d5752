// SQL for organizations and memberships.
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { orDieOnParse } from "../Database/Rows.js"
import type { Role } from "../Domain/Common.js"
import { Organization, OrganizationWithRole } from "../Domain/Organization.js"

/** The caller's membership: its id (the `memberId` of member paths) and role. */
export interface Membership {
  readonly id: string
  readonly role: Role
}

/** What organizations.update writes: `undefined` keeps a detail, `null` clears it. */
export interface OrganizationChanges {
  readonly name: string
  readonly companyName: string | null | undefined
  readonly website: string | null | undefined
  readonly phone: string | null | undefined
  readonly address: string | null | undefined
}

export interface OrganizationSummary {
  readonly id: string
  readonly name: string
  readonly role: Role
}

export class OrganizationRepo extends Effect.Service<OrganizationRepo>()("OrganizationRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(
      "o.id, o.name, o.slug, o.company_name, o.website, o.phone, o.address, o.version"
    )

    const findById = SqlSchema.findOne({
      Request: Schema.String,
      Result: Organization,
      execute: (id) => sql`SELECT ${columns} FROM organizations o WHERE o.id = ${id}`
    })

    const listForUser = SqlSchema.findAll({
      Request: Schema.String,
      Result: OrganizationWithRole,
      execute: (userId) => sql`
        SELECT ${columns}, m.role FROM members m JOIN organizations o ON o.id = m.organization_id
        WHERE m.user_id = ${userId} ORDER BY m.created_at, o.id`
    })

    return {
      findById: (id: string) => orDieOnParse(findById(id)),

      /** The user's organizations with their role, in the order they joined them. */
      listForUser: (userId: string) => orDieOnParse(listForUser(userId)),

      /** Ids, names and roles only: what the credential context shows. */
      summariesForUser: (userId: string) =>
        sql<OrganizationSummary>`
          SELECT o.id, o.name, m.role FROM members m JOIN organizations o ON o.id = m.organization_id
          WHERE m.user_id = ${userId} ORDER BY m.created_at, o.id`,

      nameOf: (id: string) =>
        Effect.map(sql<{ name: string }>`SELECT name FROM organizations WHERE id = ${id}`, (rows) =>
          Option.fromNullable(rows[0]?.name)
        ),

      /** Fails with the unique violation `organizations_slug_key` when the slug is taken. */
      insert: (organization: { readonly id: string; readonly name: string; readonly slug: string }) =>
        orDieOnParse(
          SqlSchema.single({
            Request: Schema.Void,
            Result: Organization,
            execute: () => sql`
              INSERT INTO organizations AS o (id, name, slug) VALUES (${organization.id}, ${organization.name}, ${organization.slug})
              RETURNING ${columns}`
          })(undefined)
        ).pipe(Effect.catchTag("NoSuchElementException", (error) => Effect.die(error))),

      insertMember: (member: {
        readonly id: string
        readonly organizationId: string
        readonly userId: string
        readonly role: Role
      }) =>
        sql`
          INSERT INTO members (id, organization_id, user_id, role)
          VALUES (${member.id}, ${member.organizationId}, ${member.userId}, ${member.role})`.pipe(
          Effect.asVoid
        ),

      /** The user's membership of the organization, or none when not a member. */
      membershipOf: (userId: string, organizationId: string) =>
        Effect.map(
          sql<Membership>`SELECT id, role FROM members WHERE user_id = ${userId} AND organization_id = ${organizationId}`,
          (rows) => Option.fromNullable(rows[0])
        ),

      /**
       * Locks the organization's row until the transaction ends and returns its version (none when
       * it does not exist). Every transaction that checks a role and then changes the organization,
       * its members or its invitations takes this lock first, so the check still holds when the
       * write commits (two owners demoting each other cannot leave none) and locks are always taken
       * in the same order. `NO KEY UPDATE` leaves foreign-key checks (new members) unblocked.
       */
      lockForChange: (organizationId: string) =>
        Effect.map(
          sql<{
            version: number
          }>`SELECT version FROM organizations WHERE id = ${organizationId} FOR NO KEY UPDATE`,
          (rows) => Option.fromNullable(rows[0]?.version)
        ),

      /** Applies `changes` if `version` is still current and adds 1 to it; none otherwise. */
      update: (organizationId: string, version: number, changes: OrganizationChanges) => {
        const detail = (column: string, value: string | null | undefined) =>
          value === undefined ? [] : [sql`${sql(column)} = ${value}`]
        const assignments = [
          sql`name = ${changes.name}`,
          ...detail("company_name", changes.companyName),
          ...detail("website", changes.website),
          ...detail("phone", changes.phone),
          ...detail("address", changes.address),
          sql`version = o.version + 1`,
          sql`updated_at = now()`
        ]
        return orDieOnParse(
          SqlSchema.findOne({
            Request: Schema.Void,
            Result: Organization,
            execute: () => sql`
              UPDATE organizations AS o SET ${sql.csv(assignments)}
              WHERE o.id = ${organizationId} AND o.version = ${version}
              RETURNING ${columns}`
          })(undefined)
        )
      }
    }
  })
}) {}
